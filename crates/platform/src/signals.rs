//! Stopping a long tool cleanly. `solve`, `solve-job`, `tablebase`, `datagen` and `train` run
//! for hours, and are ended by Ctrl-C (SIGINT), by a batch system (Slurm and Kubernetes send
//! SIGTERM at a task's time limit or when it is cancelled) or by a closed terminal (SIGHUP).
//! The first such signal sets a flag that they poll: `solve` prints the bounds it has proven,
//! `solve-job` keeps the jobs it has finished, `tablebase` says which layers it kept, and
//! `datagen` finishes the games in play and writes them whole, and `train` keeps the best
//! network of the epochs run; those two say so the moment the signal comes ([`say_on_stop`]).
//! A second one ends the process at once, for a tool still loading its tables or a user who
//! does not want to wait.

use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicUsize, Ordering};

/// Set by the first stopping signal: the stop flag the tools poll.
static STOP: AtomicBool = AtomicBool::new(false);

/// The number of the first stopping signal received (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

const SIGHUP: c_int = 1;
const SIGINT: c_int = 2;
const SIGTERM: c_int = 15;

/// From now on, SIGINT, SIGTERM and SIGHUP set [`flag`] instead of ending the process (the
/// second one still ends it, with the shell's status for that signal). A signal ignored when
/// the process started stays ignored, as programs started by `nohup` (SIGHUP) or as a
/// script's background job (SIGINT) expect.
pub fn stop_on_signals() {
    #[cfg(unix)]
    {
        unsafe extern "C" {
            fn signal(signum: c_int, handler: usize) -> usize;
        }
        const SIG_IGN: usize = 1;
        for signum in [SIGHUP, SIGINT, SIGTERM] {
            // SAFETY: the handler only touches atomics and calls `_exit`, both safe in a
            // signal handler; an ignored signal is set back to what it was.
            unsafe {
                if signal(signum, on_signal as extern "C" fn(c_int) as usize) == SIG_IGN {
                    signal(signum, SIG_IGN);
                }
            }
        }
    }
}

/// The flag the first stopping signal sets, for [`SolveLimits::stop`] and the `stop` of the
/// table generator, datagen and training.
///
/// [`SolveLimits::stop`]: mancala_engine::solve::SolveLimits
pub fn flag() -> &'static AtomicBool {
    &STOP
}

/// What the tool still does once stopped, said at once on stderr by the first stopping signal
/// (see [`say_on_stop`]); empty: nothing is said.
static FINISHING: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static FINISHING_LEN: AtomicUsize = AtomicUsize::new(0);

/// From now on, the first stopping signal says on stderr, the moment it comes, what the tool
/// still does before it stops (`finishing`, e.g. "the games in play are being finished"): a
/// tool that first ends the work in hand would otherwise look, for that while, as if it had
/// not heard the signal.
pub fn say_on_stop(finishing: &'static str) {
    FINISHING_LEN.store(0, Ordering::SeqCst);
    FINISHING.store(finishing.as_ptr().cast_mut(), Ordering::SeqCst);
    FINISHING_LEN.store(finishing.len(), Ordering::SeqCst);
}

/// The name of the stopping signal received, if one was.
pub fn received() -> Option<&'static str> {
    match SIGNAL.load(Ordering::SeqCst) {
        SIGHUP => Some("SIGHUP"),
        SIGINT => Some("SIGINT"),
        SIGTERM => Some("SIGTERM"),
        _ => None,
    }
}

/// The exit status of a process ended by the signal received: 128 plus its number, as a shell
/// reports a process the signal killed (130 for Ctrl-C, 143 for SIGTERM).
pub fn exit_status() -> Option<u8> {
    let signum = SIGNAL.load(Ordering::SeqCst);
    (signum > 0).then(|| 128 + signum as u8)
}

#[cfg(unix)]
extern "C" fn on_signal(signum: c_int) {
    unsafe extern "C" {
        fn _exit(status: c_int) -> !;
    }
    if SIGNAL
        .compare_exchange(0, signum, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        // SAFETY: `_exit` is async-signal-safe; a second signal means "stop now".
        unsafe { _exit(128 + signum) }
    }
    STOP.store(true, Ordering::SeqCst);
    let (text, len) = (
        FINISHING.load(Ordering::SeqCst),
        FINISHING_LEN.load(Ordering::SeqCst),
    );
    if text.is_null() || len == 0 {
        return;
    }
    // The line is put together on the stack and written by one `write`, all of it
    // async-signal-safe (no allocation, no lock).
    let name: &[u8] = match signum {
        SIGHUP => b"SIGHUP",
        SIGINT => b"SIGINT",
        _ => b"SIGTERM",
    };
    // SAFETY: `FINISHING` holds a `&'static str` of `FINISHING_LEN` bytes (see `say_on_stop`).
    let finishing = unsafe { std::slice::from_raw_parts(text, len) };
    let mut line = [0u8; 512];
    let mut at = 0;
    for part in [
        name,
        b" received: ",
        finishing,
        b" (a second signal ends it at once)\n",
    ] {
        let take = part.len().min(line.len() - at);
        line[at..at + take].copy_from_slice(&part[..take]);
        at += take;
    }
    unsafe extern "C" {
        fn write(fd: c_int, buf: *const u8, count: usize) -> isize;
    }
    // SAFETY: `write` is async-signal-safe; `line[..at]` is initialised.
    unsafe {
        write(2, line.as_ptr(), at);
    }
}

/// A tool's output read by a reader that stops early (`mancala-engine solve-merge … | head -1`)
/// ends the tool quietly, as it ends `cat` or `grep`, instead of a panic of `println!` on the
/// closed pipe: the default action of SIGPIPE, which Rust programs set aside at start. Only for
/// the tools; the daemon handles a closed output itself.
pub fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    {
        use std::ffi::c_int;
        unsafe extern "C" {
            fn signal(signum: c_int, handler: usize) -> usize;
        }
        const SIGPIPE: c_int = 13;
        const SIG_DFL: usize = 0;
        // SAFETY: restoring a signal's default action, before any other thread exists.
        let _ = unsafe { signal(SIGPIPE, SIG_DFL) };
    }
}
