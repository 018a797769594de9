//! Learning the evaluation from games: training data from self-play (`datagen`, in the format of
//! `data`) and a least-squares fit of the evaluation's weights to it (`tune`).

pub mod data;
pub mod datagen;
pub mod tune;
