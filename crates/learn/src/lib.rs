//! Learning the evaluation from games: training data from self-play (`datagen`, in the format of
//! `data`), a least-squares fit of the evaluation's weights to it (`tune`), and a small network
//! trained on top of them (`train`).

pub mod data;
pub mod datagen;
pub mod train;
pub mod tune;
