//! Test support shared by tooldef's crates (not published).

pub mod assembly;
pub mod corpus;
pub mod extras;
pub mod harness;
pub mod real;
pub mod specs;
pub mod strategy;
pub mod stream;
pub mod values;
