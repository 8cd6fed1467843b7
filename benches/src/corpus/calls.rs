//! The calls a model would send to a corpus tool: valid sample arguments, and invalid ones that
//! dispatch must refuse.

use serde_json::{Map, Value, json};

use super::{Rng, ToolSpec, Ty};

const WORDS: &[&str] = &[
    "alpha",
    "Paris",
    "quarterly report",
    "urgent",
    "blue",
    "Lyon",
    "db-migration",
    "42 Rue Cler",
    "retro",
    "Berlin",
    "release notes",
    "eu-west-1",
    "fr",
    "ada",
    "Europe/Paris",
    "spring sale",
];

impl ToolSpec {
    /// Typical arguments a model sends: every required key, about half of the optional ones,
    /// every value valid. Compact JSON text, deterministic for a given `seed`.
    pub fn sample_args(&self, seed: u64) -> String {
        let mut rng = Rng::new(seed ^ self.name.len() as u64 ^ u64::from(self.name.as_bytes()[0]));
        let mut obj = Map::new();
        for p in &self.params {
            let optional = p.ty.is_opt() || p.default.is_some();
            if optional && rng.chance(50) {
                continue;
            }
            let value = if p.ty.is_opt() && rng.chance(20) {
                Value::Null
            } else {
                self.sample_value(&mut rng, p.ty.inner(), p.range, p.max_len)
            };
            obj.insert(p.name.clone(), value);
        }
        Value::Object(obj).to_string()
    }

    fn sample_value(
        &self,
        rng: &mut Rng,
        ty: &Ty,
        range: Option<(i64, i64)>,
        max_len: Option<u64>,
    ) -> Value {
        match ty {
            Ty::Str => {
                let mut s = (*rng.pick(WORDS)).to_owned();
                if let Some(max) = max_len {
                    s.truncate(max as usize);
                }
                Value::String(s)
            }
            Ty::I64 | Ty::U8 | Ty::U32 | Ty::I32 => {
                let (lo, hi) = range.unwrap_or((-50, 5000));
                json!(rng.between(lo, hi))
            }
            Ty::U64 | Ty::U16 => {
                let (lo, hi) = range.unwrap_or((0, 5000));
                json!(rng.between(lo, hi))
            }
            Ty::F64 => json!(rng.between(-9000, 9000) as f64 / 100.0),
            Ty::Bool => json!(rng.chance(50)),
            Ty::Vec(item) => {
                let n = rng.between(0, 4);
                Value::Array((0..n).map(|_| self.sample_value(rng, item, None, None)).collect())
            }
            Ty::Struct(i) => {
                let mut obj = Map::new();
                for f in &self.structs[*i].fields {
                    if f.ty.is_opt() && rng.chance(50) {
                        continue;
                    }
                    obj.insert(f.name.clone(), self.sample_value(rng, f.ty.inner(), None, None));
                }
                Value::Object(obj)
            }
            Ty::Enum(i) => Value::String(rng.pick(&self.enums[*i].values).clone()),
            Ty::Opt(inner) => self.sample_value(rng, inner, range, max_len),
        }
    }
}

/// What an invalid call of [`ToolSpec::invalid_args`] gets wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// A bounded integer one past its maximum.
    OutOfRange,
    /// An enum parameter holding a value that is none of its variants.
    UnknownVariant,
}

impl ToolSpec {
    /// Calls that must be refused, each the valid [`ToolSpec::sample_args`] with one value
    /// made wrong: the first bounded integer parameter one past its maximum (when the tool has
    /// one), and the first enum parameter set to a value that is none of its variants (when it
    /// has one).
    pub fn invalid_args(&self, seed: u64) -> Vec<(Invalid, String)> {
        let valid: Value = serde_json::from_str(&self.sample_args(seed)).unwrap_or(Value::Null);
        let Value::Object(base) = valid else { return Vec::new() };
        let mut out = Vec::new();
        let with = |key: &str, value: Value| {
            let mut obj = base.clone();
            obj.insert(key.to_owned(), value);
            Value::Object(obj).to_string()
        };
        if let Some(p) = self.params.iter().find(|p| p.range.is_some()) {
            let (_, hi) = p.range.unwrap_or_default();
            out.push((Invalid::OutOfRange, with(&p.name, json!(hi + 1))));
        }
        if let Some(p) = self.params.iter().find(|p| matches!(p.ty.inner(), Ty::Enum(_))) {
            out.push((Invalid::UnknownVariant, with(&p.name, json!("not_a_variant"))));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Corpus, SEED};
    use super::*;

    #[test]
    fn every_tool_with_a_bound_or_an_enum_has_an_invalid_call() {
        for corpus in [Corpus::standard(), Corpus::wide()] {
            for (i, t) in corpus.tools.iter().enumerate() {
                let expected = usize::from(t.params.iter().any(|p| p.range.is_some()))
                    + usize::from(t.params.iter().any(|p| matches!(p.ty.inner(), Ty::Enum(_))));
                assert_eq!(t.invalid_args(SEED + i as u64).len(), expected, "{}", t.name);
            }
        }
    }
}
