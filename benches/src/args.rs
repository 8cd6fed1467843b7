//! What the report binaries (`compile_time`, `binsize`) share in reading their command line and
//! finding the workspace they build against.

use std::path::PathBuf;

/// The comma-separated list after `flag` (`--only a,b` gives `["a", "b"]`), if `flag` is given
/// with a value.
pub fn list_option(args: &[String], flag: &str) -> Option<Vec<String>> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .map(|list| list.split(',').map(str::to_owned).collect())
}

/// The workspace root this crate sits in (canonical where the file system allows).
pub fn workspace_root() -> PathBuf {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    workspace.canonicalize().unwrap_or(workspace)
}

#[cfg(test)]
mod tests {
    use super::list_option;

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn a_list_option_is_split_at_commas_and_absent_without_a_value() {
        let given = args(&["--runs", "3", "--only", "ct_serde,ct_tooldef"]);
        assert_eq!(list_option(&given, "--only"), Some(args(&["ct_serde", "ct_tooldef"])));
        assert_eq!(list_option(&args(&["--only"]), "--only"), None);
        assert_eq!(list_option(&args(&["--rmcp"]), "--only"), None);
    }
}
