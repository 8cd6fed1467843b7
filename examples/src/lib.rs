//! Shared helpers of the examples: a tiny loopback HTTP client and server, fake model servers
//! speaking OpenAI's and Anthropic's shapes, and the agent loop for both.

pub mod agent;
pub mod fake_model;
pub mod http;
