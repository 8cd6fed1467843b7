//! tooldef renderer for bedrock (in progress).
