//! Shared helpers of the examples: a tiny loopback HTTP client and server, and fake model
//! servers speaking OpenAI's and Anthropic's shapes.

pub mod http;
