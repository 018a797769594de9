//! A solved value proven again another way (`solve --verify`): by a second search that shares
//! nothing with the first but the rules, and its line checked move by move and against the
//! tables.

use std::fmt;
use std::time::Instant;

use mancala_rules::{LastFourRule, Move, Position, Spec};
use mancala_tablebase::Tablebases;

use super::{Solution, SolveLimits, Solver, SolverTable};

/// How the second proof searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondProof {
    /// By proof numbers (when the first was by alpha-beta).
    ProofNumbers,
    /// By alpha-beta with the moves in another order (when the first was by proof numbers).
    OtherOrder,
}

/// What a second proof found.
#[derive(Clone, Copy, Debug)]
pub struct Verified {
    pub nodes: u64,
    pub seconds: f64,
    /// Positions of the line within the tables, solved again without them.
    pub table_checks: usize,
}

/// Why a solution was not verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The limits (or a stop) ended the second proof.
    Stopped,
    /// The second proof puts the value elsewhere.
    Disagrees { value: i32, above: bool },
    /// Move `ply` (from 1) of the line is not legal.
    IllegalLine { ply: usize, mv: Move, why: String },
    /// A position of the line has another value in the tables than by search.
    TablesDisagree {
        position: String,
        tables: i32,
        searched: i32,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Stopped => f.write_str("the verification was stopped by the limits"),
            VerifyError::Disagrees { value, above } => write!(
                f,
                "the verification disagrees: the second proof finds the value {} {value}",
                if *above { "above" } else { "below" }
            ),
            VerifyError::IllegalLine { ply, mv, why } => {
                write!(f, "the line is not legal: move {ply} ({mv}): {why}")
            }
            VerifyError::TablesDisagree {
                position,
                tables,
                searched,
            } => write!(
                f,
                "the tables give {position} the value {tables}, a search without them \
                 {searched}"
            ),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Proves `solution`'s value of `pos` again by `second` with a table of `hash` MiB. Checks
/// that its line is legal, and solves each position of the line within the tables again
/// without them.
pub fn verify<S: Spec>(
    pos: &Position,
    solution: &Solution,
    hash: usize,
    tablebases: Option<&Tablebases>,
    limits: SolveLimits,
    second: SecondProof,
) -> Result<Verified, VerifyError> {
    let started = Instant::now();
    let rule = LastFourRule::default();
    let value = solution.value;
    let stopped = |_| VerifyError::Stopped;
    let table = SolverTable::new(hash);
    let mut solver = Solver::<S>::new(&table, tablebases, rule, limits);
    solver = match second {
        SecondProof::ProofNumbers => solver.with_proof_numbers(hash),
        SecondProof::OtherOrder => solver.with_other_order(),
    };
    let at_least = solver.at_least(pos, value).map_err(stopped)?;
    let above = solver.at_least(pos, value + 1).map_err(stopped)?;
    if !at_least || above {
        return Err(VerifyError::Disagrees {
            value,
            above: at_least,
        });
    }
    let nodes = solver.nodes();
    drop(solver);
    drop(table);
    let mut line_pos = *pos;
    let mut table_checks = 0;
    let small = SolverTable::new(64);
    for (ply, &mv) in solution.pv.iter().enumerate() {
        line_pos.play(mv).map_err(|e| VerifyError::IllegalLine {
            ply: ply + 1,
            mv,
            why: e.to_string(),
        })?;
        let Some(in_tables) = tablebases.and_then(|tb| tb.probe_with(&line_pos, rule)) else {
            continue;
        };
        let mut searcher = Solver::<S>::new(&small, None, rule, limits);
        let searched = searcher.value(&line_pos).map_err(stopped)?;
        if searched != in_tables {
            return Err(VerifyError::TablesDisagree {
                position: line_pos.to_string(),
                tables: in_tables,
                searched,
            });
        }
        table_checks += 1;
    }
    Ok(Verified {
        nodes,
        seconds: started.elapsed().as_secs_f64(),
        table_checks,
    })
}
