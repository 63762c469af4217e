//! A small JSONC reader for `tsconfig.json` and friends: `//` and `/* */` comments and trailing
//! commas are removed (outside strings) before the text goes to `serde_json`.

use serde_json::Value;

/// Parses JSON with comments and trailing commas; `None` when it is still not valid JSON.
pub(crate) fn parse(text: &str) -> Option<Value> {
    serde_json::from_str(&strip(text)).ok()
}

/// Removes comments and trailing commas outside strings, and a leading byte-order mark.
pub(crate) fn strip(text: &str) -> String {
    without_trailing_commas(&without_comments(text.trim_start_matches('\u{feff}')))
}

fn without_comments(text: &str) -> String {
    let mut output = String::with_capacity(text.len());
    let mut characters = text.chars().peekable();
    while let Some(character) = characters.next() {
        match character {
            '"' => copy_string(&mut characters, &mut output),
            '/' if characters.peek() == Some(&'/') => {
                for skipped in characters.by_ref() {
                    if skipped == '\n' {
                        output.push('\n');
                        break;
                    }
                }
            }
            '/' if characters.peek() == Some(&'*') => {
                characters.next();
                let mut previous = ' ';
                for skipped in characters.by_ref() {
                    if previous == '*' && skipped == '/' {
                        break;
                    }
                    previous = skipped;
                }
                output.push(' ');
            }
            _ => output.push(character),
        }
    }
    output
}

fn without_trailing_commas(text: &str) -> String {
    let mut output = String::with_capacity(text.len());
    let mut characters = text.chars().peekable();
    while let Some(character) = characters.next() {
        match character {
            '"' => copy_string(&mut characters, &mut output),
            ',' => {
                let rest: String = characters
                    .clone()
                    .take_while(|next| next.is_whitespace())
                    .collect();
                let after = characters.clone().nth(rest.chars().count());
                if !matches!(after, Some('}' | ']')) {
                    output.push(',');
                }
            }
            _ => output.push(character),
        }
    }
    output
}

/// Copies a string literal whose opening quote was just consumed, escapes included.
fn copy_string(characters: &mut impl Iterator<Item = char>, output: &mut String) {
    output.push('"');
    let mut escaped = false;
    for character in characters {
        output.push(character);
        if escaped {
            escaped = false;
        } else if character == '\\' {
            escaped = true;
        } else if character == '"' {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_tolerated() {
        let text = "\u{feff}{\n  // line comment\n  \"a\": \"http://x/*y*/\", /* block */\n  \"b\": [1, 2,],\n}\n";
        let value = parse(text).unwrap();
        assert_eq!(value["a"], "http://x/*y*/");
        assert_eq!(value["b"], serde_json::json!([1, 2]));
    }

    #[test]
    fn escaped_quotes_stay_inside_strings() {
        let value = parse(r#"{"a": "say \"//hi\"", "b": 1,}"#).unwrap();
        assert_eq!(value["a"], "say \"//hi\"");
    }
}
