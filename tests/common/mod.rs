pub mod naive_solver;
pub mod positions;
pub mod reference;
