//! Waivers (`kinds::waiver`): reviewed exceptions to a rule or to one finding, with an owner, a
//! reason and the last day they hold.

use serde::{Deserialize, Serialize};

use super::SourceLocation;

/// What a waiver covers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum WaiverTarget {
    /// One finding, by its verdict id (`viol_` + 16 hex digits).
    Finding {
        /// The id.
        id: String,
    },
    /// Every finding of an invariant or policy (or contract), or of one of its rules.
    Rule {
        /// The invariant, policy or contract name.
        declaration: String,
        /// The rule's text as the verdict writes it (`rule.text`), or `None` for all its rules.
        rule: Option<String>,
    },
}

/// One `waive` declaration.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Waiver {
    /// What it covers.
    pub target: WaiverTarget,
    /// The last day it holds, `YYYY-MM-DD`.
    pub until: String,
    /// Who owns the exception.
    pub owner: String,
    /// Why it is accepted.
    pub reason: String,
    /// Where it is written.
    pub source: SourceLocation,
}

/// True when `text` is a day of the Gregorian calendar written `YYYY-MM-DD`, so that two such
/// texts compare as their days do.
pub fn is_calendar_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let [year, month, day] = parts.as_slice() else {
        return false;
    };
    let digits = |part: &str, length: usize| {
        part.len() == length && part.bytes().all(|byte| byte.is_ascii_digit())
    };
    if !(digits(year, 4) && digits(month, 2) && digits(day, 2)) {
        return false;
    }
    let (Ok(year), Ok(month), Ok(day)) = (
        year.parse::<u32>(),
        month.parse::<u32>(),
        day.parse::<u32>(),
    ) else {
        return false;
    };
    let is_leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

#[cfg(test)]
mod tests {
    use super::is_calendar_date;

    #[test]
    fn only_real_days_written_yyyy_mm_dd_are_dates() {
        for date in ["2027-03-31", "2024-02-29", "2000-02-29", "1999-12-01"] {
            assert!(is_calendar_date(date), "{date}");
        }
        for text in [
            "2027-3-31",
            "2027-04-31",
            "2023-02-29",
            "1900-02-29",
            "2027-13-01",
            "2027-00-10",
            "27-03-31",
            "2027-03-31x",
            "2027/03/31",
            "",
            "2027-03",
            "+027-03-31",
        ] {
            assert!(!is_calendar_date(text), "{text}");
        }
    }
}
