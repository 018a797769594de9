//! The `key = value` syntax that the evaluation's data files share (weights files and network
//! files, as game files use it): a value is a word in double quotes, a whole number or a list of
//! them; comments and blank lines are skipped.

use std::collections::BTreeMap;

use mancala_rules::definition::strip_comment;

pub(crate) fn value_error(key: &str, why: impl Into<String>) -> String {
    format!("{key}: {}", why.into())
}

/// A line's value: a word, a number or a list of numbers.
pub(crate) enum Value {
    Word(String),
    Number(i64),
    List(Vec<i64>),
}

pub(crate) fn parse_value(text: &str) -> Result<Value, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<i64>()
            .map_err(|_| format!("'{}' is not a whole number", t.trim()))
    };
    if let Some(inner) = text.strip_prefix('"') {
        return inner
            .strip_suffix('"')
            .map(|w| Value::Word(w.to_string()))
            .ok_or_else(|| "a word in double quotes must end with one".to_string());
    }
    if let Some(inner) = text.strip_prefix('[') {
        let inner = inner.strip_suffix(']').ok_or("a list must end with ']'")?;
        if inner.trim().is_empty() {
            return Ok(Value::List(Vec::new()));
        }
        return inner
            .split(',')
            .map(number)
            .collect::<Result<Vec<i64>, String>>()
            .map(Value::List);
    }
    number(text).map(Value::Number)
}

/// The `key = value` lines of a data file (weights or network), comments and blank lines
/// skipped, each key at most once.
pub(crate) fn read_fields(text: &str) -> Result<BTreeMap<String, Value>, String> {
    let mut fields: BTreeMap<String, Value> = BTreeMap::new();
    for (number, raw) in text.lines().enumerate() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("line {}: '{line}' is not 'key = value'", number + 1))?;
        let key = key.trim().to_string();
        let value = parse_value(value.trim()).map_err(|why| value_error(&key, why))?;
        if fields.insert(key.clone(), value).is_some() {
            return Err(value_error(&key, "given twice"));
        }
    }
    Ok(fields)
}
