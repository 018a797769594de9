//! What a `go` asks for, and the time plan derived from it.

use std::time::Duration;

use mancala_rules::Side;

pub use mancala_protocol::Limits;

/// When to stop: `soft` is checked between iterations (don't start one that cannot finish),
/// `hard` inside the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimePlan {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// Moves assumed left in the game when the clock gives no `movestogo`.
const DEFAULT_MOVES_TO_GO: u64 = 25;

impl TimePlan {
    pub fn new(limits: &Limits, side: Side, overhead_ms: u64) -> TimePlan {
        if let Some(movetime) = limits.movetime {
            let budget = Duration::from_millis(movetime.saturating_sub(overhead_ms).max(1));
            return TimePlan {
                soft: Some(budget),
                hard: Some(budget),
            };
        }
        let Some(remaining) = limits.time[side.index()] else {
            return TimePlan::default();
        };
        let inc = limits.inc[side.index()];
        let usable = remaining.saturating_sub(overhead_ms).max(1);
        let moves_to_go = limits.movestogo.map_or(DEFAULT_MOVES_TO_GO, |m| {
            (m as u64).clamp(1, DEFAULT_MOVES_TO_GO)
        });
        // Never plan to use more than this share of what is left on the clock.
        let cap = if moves_to_go == 1 {
            usable * 4 / 5
        } else {
            usable / 2
        };
        let soft = (usable / moves_to_go + inc * 3 / 4).min(cap).max(1);
        let hard = (soft * 3).min(cap).max(soft);
        TimePlan {
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_leaves_the_overhead() {
        let limits = Limits {
            movetime: Some(100),
            ..Limits::default()
        };
        let plan = TimePlan::new(&limits, Side::South, 10);
        assert_eq!(plan.hard, Some(Duration::from_millis(90)));
        let zero = Limits {
            movetime: Some(0),
            ..Limits::default()
        };
        assert_eq!(
            TimePlan::new(&zero, Side::South, 10).hard,
            Some(Duration::from_millis(1))
        );
    }

    #[test]
    fn clock_plan_uses_a_share_of_the_own_clock() {
        let limits = Limits {
            time: [Some(60_000), Some(1_000)],
            inc: [1_000, 0],
            ..Limits::default()
        };
        let south = TimePlan::new(&limits, Side::South, 10);
        assert!(south.soft.unwrap() > Duration::from_millis(2_000));
        assert!(south.hard.unwrap() <= Duration::from_millis(30_000));
        let north = TimePlan::new(&limits, Side::North, 10);
        assert!(north.hard.unwrap() <= Duration::from_millis(500));
        assert!(north.soft.unwrap() >= Duration::from_millis(1));
        let last_move = Limits {
            time: [Some(1_000), None],
            movestogo: Some(1),
            ..Limits::default()
        };
        assert!(
            TimePlan::new(&last_move, Side::South, 10).hard.unwrap() <= Duration::from_millis(800)
        );
    }

    #[test]
    fn no_limit_means_wait_for_stop() {
        assert!(Limits::default().waits_for_stop());
        assert!(
            !Limits {
                depth: Some(3),
                ..Limits::default()
            }
            .waits_for_stop()
        );
    }
}
