//! Test support shared by tooldef's crates (not published).

pub mod corpus;
pub mod specs;
pub mod strategy;
pub mod values;
