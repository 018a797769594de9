//! Memory: what the system can still give this process, and what it has used at its peak.

use std::path::{Path, PathBuf};

/// What this process can still have now, in bytes: the machine's `MemAvailable`, or less where
/// the process runs in a control group with a memory limit (a batch system's task, a
/// container), whose room is its limit less its usage at the tightest level of the group's
/// path. `None` where the system says neither.
pub fn available() -> Option<u64> {
    let machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| kib_field(&text, "MemAvailable:"))
        .map(|kib| kib * 1024);
    let group = cgroup_room(
        &std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default(),
        &std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default(),
        &|path| std::fs::read_to_string(path).ok(),
    );
    match (machine, group) {
        (Some(m), Some(g)) => Some(m.min(g)),
        (m, g) => m.or(g),
    }
}

/// The room left under the memory limits of this process's control group, in bytes: the
/// smallest `limit − usage` over the group and its ancestors up to the hierarchy's mount
/// (cgroup v2: `memory.max`, `memory.current`; v1: `memory.limit_in_bytes`,
/// `memory.usage_in_bytes`); `None` without a limit. `cgroup` is `/proc/self/cgroup`,
/// `mountinfo` is `/proc/self/mountinfo`, `read` reads a file of the hierarchy.
fn cgroup_room(
    cgroup: &str,
    mountinfo: &str,
    read: &dyn Fn(&Path) -> Option<String>,
) -> Option<u64> {
    let number = |text: Option<String>| text.and_then(|t| t.trim().parse::<u64>().ok());
    let mut room: Option<u64> = None;
    for (version, path) in cgroup_paths(cgroup) {
        let Some((mount, root)) = cgroup_mount(mountinfo, version) else {
            continue;
        };
        // The group's directory: its path within the hierarchy, less the mount's own root (in
        // a container the mount shows the group as its root).
        let inside = Path::new(&path)
            .strip_prefix(&root)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| PathBuf::from(path.trim_start_matches('/')));
        let (limit_file, usage_file) = match version {
            CgroupVersion::V2 => ("memory.max", "memory.current"),
            CgroupVersion::V1 => ("memory.limit_in_bytes", "memory.usage_in_bytes"),
        };
        let mut dir = mount.join(&inside);
        loop {
            // v2 writes "max" for no limit; v1 a huge number.
            if let Some(limit) = number(read(&dir.join(limit_file))).filter(|&l| l < 1 << 60) {
                let usage = number(read(&dir.join(usage_file))).unwrap_or(0);
                let left = limit.saturating_sub(usage);
                room = Some(room.map_or(left, |r| r.min(left)));
            }
            if dir == mount || !dir.pop() || !dir.starts_with(&mount) {
                break;
            }
        }
    }
    room
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CgroupVersion {
    V1,
    V2,
}

/// The process's group paths from `/proc/self/cgroup`: the v2 one (`0::/path`) and the v1
/// memory controller's (`N:...memory...:/path`).
fn cgroup_paths(cgroup: &str) -> Vec<(CgroupVersion, String)> {
    cgroup
        .lines()
        .filter_map(|line| {
            let mut fields = line.splitn(3, ':');
            let (id, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
            if id == "0" && controllers.is_empty() {
                Some((CgroupVersion::V2, path.to_string()))
            } else if controllers.split(',').any(|c| c == "memory") {
                Some((CgroupVersion::V1, path.to_string()))
            } else {
                None
            }
        })
        .collect()
}

/// Where the hierarchy of `version` is mounted (the memory controller's for v1), and the
/// group path the mount shows as its root, from `/proc/self/mountinfo`.
fn cgroup_mount(mountinfo: &str, version: CgroupVersion) -> Option<(PathBuf, PathBuf)> {
    mountinfo.lines().find_map(|line| {
        let (mount_fields, fs_fields) = line.split_once(" - ")?;
        let fields: Vec<&str> = mount_fields.split(' ').collect();
        let fs: Vec<&str> = fs_fields.split(' ').collect();
        let (root, mount_point) = (fields.get(3)?, fields.get(4)?);
        let matches = match version {
            CgroupVersion::V2 => fs.first() == Some(&"cgroup2"),
            CgroupVersion::V1 => {
                fs.first() == Some(&"cgroup")
                    && fs
                        .get(2)
                        .is_some_and(|o| o.split(',').any(|o| o == "memory"))
            }
        };
        matches.then(|| (PathBuf::from(mount_point), PathBuf::from(root)))
    })
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

    fn files(pairs: &[(&str, &str)]) -> impl Fn(&Path) -> Option<String> + use<> {
        let map: std::collections::HashMap<PathBuf, String> = pairs
            .iter()
            .map(|(p, t)| (PathBuf::from(p), t.to_string()))
            .collect();
        move |path| map.get(path).cloned()
    }

    const V2_MOUNT: &str = "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw\n";

    #[test]
    fn a_slurm_task_under_cgroup_v2_has_its_limit_less_its_usage() {
        let cgroup = "0::/system.slice/slurmstepd.scope/job_7/step_0/user/task_0\n";
        let job = "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_7";
        let read = files(&[
            (&format!("{job}/memory.max"), "41943040\n"),
            (&format!("{job}/memory.current"), "10485760\n"),
            (&format!("{job}/step_0/memory.max"), "max\n"),
            ("/sys/fs/cgroup/memory.max", "max\n"),
        ]);
        assert_eq!(cgroup_room(cgroup, V2_MOUNT, &read), Some(30 << 20));
    }

    #[test]
    fn the_tightest_level_of_the_path_decides() {
        let cgroup = "0::/a/b\n";
        let read = files(&[
            ("/sys/fs/cgroup/a/b/memory.max", "1000000000"),
            ("/sys/fs/cgroup/a/b/memory.current", "0"),
            ("/sys/fs/cgroup/a/memory.max", "300000000"),
            ("/sys/fs/cgroup/a/memory.current", "100000000"),
        ]);
        assert_eq!(cgroup_room(cgroup, V2_MOUNT, &read), Some(200_000_000));
    }

    #[test]
    fn a_container_sees_its_group_as_the_root_of_the_mount() {
        let mountinfo =
            "1050 1040 0:26 /docker/abc /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n";
        let read = files(&[
            ("/sys/fs/cgroup/memory.max", "536870912"),
            ("/sys/fs/cgroup/memory.current", "0"),
        ]);
        assert_eq!(
            cgroup_room("0::/docker/abc\n", mountinfo, &read),
            Some(512 << 20)
        );
        assert_eq!(cgroup_room("0::/\n", mountinfo, &read), Some(512 << 20));
    }

    #[test]
    fn cgroup_v1_reads_the_memory_controller() {
        let cgroup = "5:cpu,cpuacct:/slurm/uid_0/job_3\n4:memory:/slurm/uid_0/job_3/step_0\n";
        let mountinfo = "40 30 0:35 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n\
                         41 30 0:36 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n";
        let read = files(&[
            (
                "/sys/fs/cgroup/memory/slurm/uid_0/job_3/memory.limit_in_bytes",
                "52428800",
            ),
            (
                "/sys/fs/cgroup/memory/slurm/uid_0/job_3/memory.usage_in_bytes",
                "2097152",
            ),
            (
                "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                "9223372036854771712",
            ),
        ]);
        assert_eq!(cgroup_room(cgroup, mountinfo, &read), Some(48 << 20));
    }

    #[test]
    fn no_limit_is_no_room_to_speak_of() {
        let read = files(&[("/sys/fs/cgroup/user.slice/memory.max", "max")]);
        assert_eq!(cgroup_room("0::/user.slice\n", V2_MOUNT, &read), None);
        assert_eq!(cgroup_room("", "", &read), None);
        // A usage above the limit leaves nothing, not a wrapped number.
        let over = files(&[
            ("/sys/fs/cgroup/memory.max", "100"),
            ("/sys/fs/cgroup/memory.current", "200"),
        ]);
        assert_eq!(cgroup_room("0::/\n", V2_MOUNT, &over), Some(0));
    }

    #[test]
    fn this_machine_says_what_it_has() {
        if cfg!(target_os = "linux") {
            assert!(available().is_some_and(|bytes| bytes > 0));
            assert!(peak_mib().is_some());
        }
    }
}
