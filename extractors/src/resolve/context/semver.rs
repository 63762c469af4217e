//! Whether an npm version range allows a version, as node-semver reads the common forms:
//! `1.2.3`, `=1.2.3`, `^1.2.3`, `~1.2.3`, `>=1.2`, `<2`, `1.x`, `1.2.*`, hyphen ranges
//! (`1.2 - 2.3.4`), comparators joined by spaces and alternatives by `||`. Anything else (a
//! tag such as `latest`, a URL, a protocol such as `workspace:` or `catalog:`, a prerelease
//! version) is no answer: the caller keeps its default.

/// A version as `(major, minor, patch)`.
type Version = (u64, u64, u64);

/// `[low, high)`: the versions a comparator allows (`None` when unbounded above).
type Interval = (Version, Option<Version>);

/// Whether `range` allows `version`; `None` when either is not a form this module reads.
pub(crate) fn allows(range: &str, version: &str) -> Option<bool> {
    let version = exact_version(version)?;
    let mut allowed = false;
    for alternative in range.split("||") {
        allowed |= alternative_allows(alternative.trim(), version)?;
    }
    Some(allowed)
}

/// One `||` alternative: every comparator (or the hyphen range) allows the version.
fn alternative_allows(alternative: &str, version: Version) -> Option<bool> {
    if let Some((low, high)) = alternative.split_once(" - ") {
        let (low, _) = interval("", partial(low.trim())?)?;
        let (_, high) = interval("<=", partial(high.trim())?)?;
        return Some(within((low, high), version));
    }
    let comparators = glued_operators(alternative);
    let mut allowed = true;
    for comparator in comparators {
        let (operator, rest) = split_operator(&comparator);
        allowed &= within(interval(operator, partial(rest)?)?, version);
    }
    Some(allowed)
}

/// The comparators of an alternative, an operator separated from its version by spaces
/// (`>= 1.2`) glued back to it.
fn glued_operators(alternative: &str) -> Vec<String> {
    let mut comparators: Vec<String> = Vec::new();
    for word in alternative.split_whitespace() {
        match comparators.last_mut() {
            Some(last) if last.chars().all(|c| "<>=^~".contains(c)) => last.push_str(word),
            _ => comparators.push(word.to_owned()),
        }
    }
    if comparators.is_empty() {
        comparators.push(String::new());
    }
    comparators
}

fn split_operator(comparator: &str) -> (&str, &str) {
    for operator in [">=", "<=", "~>", ">", "<", "=", "^", "~"] {
        if let Some(rest) = comparator.strip_prefix(operator) {
            return (operator, rest.trim());
        }
    }
    ("", comparator)
}

fn within((low, high): Interval, version: Version) -> bool {
    version >= low && high.is_none_or(|high| version < high)
}

/// A partial version, each part `None` for a wildcard (`x`, `X`, `*`) or a missing part; `None`
/// when it is not a version (a tag, a prerelease).
fn partial(text: &str) -> Option<[Option<u64>; 3]> {
    let text = text.strip_prefix(['v', '=']).unwrap_or(text);
    if text.contains(['-', '+']) {
        return None;
    }
    let mut parts = [None; 3];
    if text.is_empty() {
        return Some(parts);
    }
    let mut wildcard = false;
    for (index, part) in text.split('.').enumerate() {
        let slot = parts.get_mut(index)?;
        if matches!(part, "x" | "X" | "*") {
            wildcard = true;
        } else if wildcard || part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        } else {
            *slot = Some(part.parse().ok()?);
        }
    }
    Some(parts)
}

/// The interval an operator and a partial version allow.
fn interval(operator: &str, [major, minor, patch]: [Option<u64>; 3]) -> Option<Interval> {
    let Some(major) = major else {
        // `*`, `>=*`: any version; `<*`, `>*`: none, which no package declares.
        return matches!(operator, "" | "=" | ">=" | "<=" | "^" | "~" | "~>")
            .then_some(((0, 0, 0), None));
    };
    let low = (major, minor.unwrap_or(0), patch.unwrap_or(0));
    // The first version past the partial's precision (`1.2` → `1.3.0`).
    let next = match (minor, patch) {
        (None, _) => (major + 1, 0, 0),
        (Some(minor), None) => (major, minor + 1, 0),
        (Some(minor), Some(patch)) => (major, minor, patch + 1),
    };
    Some(match operator {
        "" | "=" => (low, Some(next)),
        ">=" => (low, None),
        ">" => (next, None),
        "<" => ((0, 0, 0), Some(low)),
        "<=" => ((0, 0, 0), Some(next)),
        "~" | "~>" => (
            low,
            Some(match minor {
                Some(minor) => (major, minor + 1, 0),
                None => (major + 1, 0, 0),
            }),
        ),
        "^" => (
            low,
            Some(match (major, minor, patch) {
                (0, Some(0), Some(patch)) => (0, 0, patch + 1),
                (0, Some(minor), _) => (0, minor + 1, 0),
                _ => (major + 1, 0, 0),
            }),
        ),
        _ => return None,
    })
}

/// A full release version (`1.2.3`); `None` for a prerelease or anything else.
fn exact_version(text: &str) -> Option<Version> {
    match partial(text.trim())? {
        [Some(major), Some(minor), Some(patch)] => Some((major, minor, patch)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::allows;

    #[test]
    fn reads_the_common_range_forms_as_node_semver_does() {
        for (range, version, expected) in [
            ("^1.11.13", "0.0.0", Some(false)),
            ("^1.11.13", "1.11.19", Some(true)),
            ("^1.11.13", "2.0.0", Some(false)),
            ("^0.2.3", "0.3.0", Some(false)),
            ("^0.0.3", "0.0.3", Some(true)),
            ("^0.0.3", "0.0.4", Some(false)),
            ("~1.2.3", "1.2.9", Some(true)),
            ("~1.2.3", "1.3.0", Some(false)),
            ("1.2.3", "1.2.3", Some(true)),
            ("=1.2.3", "1.2.4", Some(false)),
            ("1.x", "1.9.0", Some(true)),
            ("1.2.*", "1.3.0", Some(false)),
            (">=1.2 <2", "1.5.0", Some(true)),
            (">= 1.2 < 2", "2.0.0", Some(false)),
            ("<=1.2", "1.2.9", Some(true)),
            (">1.2", "1.2.9", Some(false)),
            ("^1 || ^2", "2.4.0", Some(true)),
            ("1.2 - 2.3.4", "2.3.4", Some(true)),
            ("1.2 - 2.3.4", "2.3.5", Some(false)),
            ("*", "0.0.0", Some(true)),
            ("", "3.1.0", Some(true)),
            ("latest", "1.0.0", None),
            ("workspace:*", "1.0.0", None),
            ("catalog:", "1.0.0", None),
            ("^1.0.0-beta.1", "1.0.0", None),
            ("^1.0.0", "1.0.0-rc.1", None),
            ("^1.0.0", "not a version", None),
        ] {
            assert_eq!(allows(range, version), expected, "{range} allows {version}");
        }
    }
}
