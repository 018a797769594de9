//! Memory: what the system can still give, and what this process has used at its peak.

/// What the system has available now (Linux's `MemAvailable`), in bytes; `None` where it does
/// not say.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&text, "MemAvailable:").map(|kib| kib * 1024)
}

/// [`available`] in MiB.
pub fn available_mib() -> Option<u64> {
    available().map(|bytes| bytes >> 20)
}

/// This process's peak resident memory (Linux's `VmHWM`), in MiB.
pub fn peak_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    kib_field(&status, "VmHWM:").map(|kib| kib / 1024)
}

/// The value in KiB of the line `name  <n> kB` of a `/proc` file.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_lines_are_read_in_kib() {
        let meminfo = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20480 kB\n";
        assert_eq!(kib_field(meminfo, "MemAvailable:"), Some(20480));
        assert_eq!(kib_field(meminfo, "Cached:"), None);
        assert_eq!(kib_field("VmHWM: x kB", "VmHWM:"), None);
    }

    #[test]
    fn this_machine_says_what_it_has() {
        if cfg!(target_os = "linux") {
            assert!(available().is_some_and(|bytes| bytes > 0));
            assert!(peak_mib().is_some());
        }
    }
}
