//! "Did you mean ...?": the one rule that picks a likely intended word for a misspelt one.
//!
//! Owns the rule shared by every message that suggests a correction: the macros' attribute keys,
//! unknown spec keys and JSON Schema type names, unknown tool names in dispatch, and the command
//! line's verbs and options. One source file serves both crates, the way serde shares code with
//! serde_derive: it lives in `tooldef-macros` and `tooldef`'s `src/suggest.rs` is a symbolic link
//! to it (packaging copies the file into each crate). It uses nothing but `std`. Public in
//! `tooldef` for the `tooldef` command only; not part of the supported API.

/// The candidate closest to `wanted`, when it is close enough to be a likely typo.
///
/// Words are compared ignoring ASCII case, by edit distance with transpositions (a swapped pair
/// of letters counts as one edit). A candidate is close enough when the distance is at most a
/// third of the length of `wanted` (at least 1) and smaller than both words' lengths (so a
/// one-letter word is never "corrected"); among several, the nearest wins, then the first given.
pub fn closest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted_lower: Vec<char> = wanted.chars().map(|c| c.to_ascii_lowercase()).collect();
    let limit = (wanted_lower.len() / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let lower: Vec<char> = candidate.chars().map(|c| c.to_ascii_lowercase()).collect();
        let d = distance(&wanted_lower, &lower);
        if d <= limit
            && d < lower.len().min(wanted_lower.len())
            && best.is_none_or(|(bd, _)| d < bd)
        {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Edit distance with transpositions (optimal string alignment) between two words.
pub fn distance(a: &[char], b: &[char]) -> usize {
    // Three rows: two back (for transpositions), the previous one and the current one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(a: &str, b: &str) -> usize {
        distance(&a.chars().collect::<Vec<_>>(), &b.chars().collect::<Vec<_>>())
    }

    #[test]
    fn distance_counts_insertions_deletions_substitutions_and_swaps() {
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("annotatons", "annotations"), 1);
        assert_eq!(d("nmae", "name"), 1);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("abc", "abc"), 0);
    }

    #[test]
    fn typos_are_corrected_and_other_words_are_not() {
        let keys = ["name", "title", "description", "input_schema", "annotations"];
        assert_eq!(closest("annotatons", keys), Some("annotations"));
        assert_eq!(closest("inputSchema", keys), Some("input_schema"));
        assert_eq!(closest("nmae", keys), Some("name"));
        assert_eq!(closest("TITLE", keys), Some("title"));
        assert_eq!(closest("command", keys), None);
        assert_eq!(closest("x", ["a", "xy"]), None);
        let types = ["string", "integer", "number", "boolean", "null", "array", "object"];
        assert_eq!(closest("integr", types), Some("integer"));
        assert_eq!(closest("int", types), None);
    }

    #[test]
    fn the_nearest_then_the_first_candidate_wins() {
        assert_eq!(closest("chek", ["check", "cheek"]), Some("check"));
        assert_eq!(closest("abcd", ["abxd", "abcx"]), Some("abxd"));
        assert_eq!(closest("abcd", ["abxy", "abcx"]), Some("abcx"));
    }
}
