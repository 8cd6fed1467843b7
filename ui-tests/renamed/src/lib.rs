//! `tooldef` renamed to `my_tooldef` in `Cargo.toml`: every macro takes the `crate` key and
//! generated code never names `::tooldef`.
#![deny(warnings)]

use my_tooldef::{RunTool, Tool, ToolError, ToolSchema, tool, tools};
use serde::{Deserialize, Serialize};

/// How loud.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToolSchema)]
#[schema(crate = my_tooldef)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Quietly.
    Soft,
    /// Loudly.
    Loud,
}

/// Echo a word.
#[tool(crate = my_tooldef, read_only)]
pub fn echo(
    word: String,
    #[param(default = "soft")] mode: Mode,
    #[param(range = 1..=3, default = 1)] times: u8,
) -> String {
    let w = match mode {
        Mode::Soft => word,
        Mode::Loud => word.to_uppercase(),
    };
    w.repeat(usize::from(times))
}

/// Ping.
#[derive(Deserialize, Tool)]
#[tool(crate = "my_tooldef")]
pub struct Ping {
    /// Who.
    pub who: String,
}

impl RunTool for Ping {
    type Output = String;

    async fn run(self) -> Result<String, ToolError> {
        Ok(format!("pong {}", self.who))
    }
}

/// A service.
pub struct Service;

#[tools(crate = my_tooldef)]
impl Service {
    /// Say hi.
    #[tool]
    pub fn hi(&self) -> String {
        "hi".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use my_tooldef::ToolSet;

    #[test]
    fn renamed_crate_descriptors() {
        assert_eq!(Echo::descriptor().name, "echo");
        // Without a doc comment of its own, a parameter keeps its type's description.
        assert_eq!(Echo::descriptor().param("mode").unwrap().description_text(), Some("How loud."));
        assert_eq!(Ping::NAME, "ping");
        let names: Vec<_> = Service::descriptors().iter().map(|d| d.name.to_string()).collect();
        assert_eq!(names, ["hi"]);
        let args: <Echo as Tool>::Args = serde_json::from_str(r#"{"word":"a","times":2}"#).unwrap();
        assert!(Echo::check(&args).is_ok());
    }
}
