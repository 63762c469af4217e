//! Classification of numeric runs: `NUMBER`, `UNIT` or `RAW`.

/// `-?[0-9]+(\.[0-9]+)?`
pub fn is_number(text: &str) -> bool {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    is_unsigned_decimal(unsigned)
}

fn is_unsigned_decimal(text: &str) -> bool {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let all_digits =
        |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    all_digits(whole) && fraction.is_none_or(all_digits)
}

/// `[0-9]+(\.[0-9]+)?(ms|s|rps|rpm|kb|mb|gb)`, case-insensitively.
pub fn is_unit(text: &str) -> bool {
    let split = text
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at_checked(split).unwrap_or((text, ""));
    let unit = unit.to_ascii_lowercase();
    is_unsigned_decimal(number)
        && matches!(
            unit.as_str(),
            "ms" | "s" | "rps" | "rpm" | "kb" | "mb" | "gb"
        )
}
