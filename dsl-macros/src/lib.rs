//! Procedural macros for `tooldef`. Use them through the `tooldef` crate, which re-exports them.
