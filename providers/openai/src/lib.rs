//! tooldef renderer for openai (in progress).
