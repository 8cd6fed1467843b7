//! Test support shared by tooldef's crates (not published).

pub mod specs;
pub mod strategy;
