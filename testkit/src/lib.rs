//! Test support shared by tooldef's crates (not published).

pub mod assembly;
pub mod content;
pub mod corpus;
pub mod extras;
pub mod fuzz;
pub mod harness;
pub mod names;
pub mod ordered;
pub mod real;
pub mod specs;
pub mod strategy;
pub mod stream;
pub mod values;
pub mod way_back;
