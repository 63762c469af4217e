//! HTTP path normalisation (see `contract` in policies/LANGUAGE.md), shared by every language's `route` and
//! `http_call` facts so that extracted paths compare equal to contract paths.

/// Normalises an HTTP path: drops the query string and fragment; replaces `{x}`, `{x:type}`,
/// `${x}`, `:x` (at a segment start), `<x>` and `<type:x>` with `{}`; lowercases; collapses
/// repeated `/`; drops a trailing `/` except for the root.
pub(crate) fn normalize(path: &str) -> String {
    let mut replaced = String::with_capacity(path.len());
    let mut characters = path.chars().peekable();
    let mut previous = '/';
    while let Some(character) = characters.next() {
        match character {
            '?' | '#' => break,
            '$' if characters.peek() == Some(&'{') => {
                characters.next();
                skip_until_closing(&mut characters, '{', '}');
                replaced.push_str("{}");
            }
            '{' => {
                skip_until_closing(&mut characters, '{', '}');
                replaced.push_str("{}");
            }
            '<' => {
                skip_until_closing(&mut characters, '<', '>');
                replaced.push_str("{}");
            }
            ':' if previous == '/'
                && characters
                    .peek()
                    .is_some_and(|next| is_name_character(*next)) =>
            {
                while characters
                    .peek()
                    .is_some_and(|next| is_name_character(*next))
                {
                    characters.next();
                }
                // Express allows a pattern after the name (`:id(\\d+)`) and an optional marker.
                if characters.peek() == Some(&'(') {
                    characters.next();
                    skip_until_closing(&mut characters, '(', ')');
                }
                if characters.peek() == Some(&'?') {
                    characters.next();
                }
                replaced.push_str("{}");
            }
            _ => replaced.extend(character.to_lowercase()),
        }
        previous = character;
    }
    let mut normalized = String::with_capacity(replaced.len() + 1);
    for character in replaced.chars() {
        if character == '/' && normalized.ends_with('/') {
            continue;
        }
        normalized.push(character);
    }
    if !normalized.starts_with('/') {
        normalized.insert(0, '/');
    }
    while normalized.len() > 1 && normalized.ends_with('/') {
        normalized.pop();
    }
    normalized
}

fn is_name_character(character: char) -> bool {
    character.is_alphanumeric() || character == '_'
}

/// Consumes characters up to the `close` that balances an already consumed `open`.
fn skip_until_closing(characters: &mut impl Iterator<Item = char>, open: char, close: char) {
    let mut depth = 1usize;
    for character in characters {
        if character == open {
            depth += 1;
        } else if character == close {
            depth -= 1;
            if depth == 0 {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn normalize_replaces_every_parameter_form() {
        assert_eq!(normalize("/Orders/:id"), "/orders/{}");
        assert_eq!(
            normalize("/orders/{id}/items/{n:int}"),
            "/orders/{}/items/{}"
        );
        assert_eq!(normalize("/orders/${order.id}?x=1#top"), "/orders/{}");
        assert_eq!(normalize("/a/<int:x>/<y>"), "/a/{}/{}");
        assert_eq!(normalize("/a/:id(\\d+)/b/:c?"), "/a/{}/b/{}");
    }

    #[test]
    fn normalize_collapses_and_trims_slashes() {
        assert_eq!(normalize("//a///b/"), "/a/b");
        assert_eq!(normalize("/"), "/");
        assert_eq!(normalize(""), "/");
        assert_eq!(normalize("orders"), "/orders");
        assert_eq!(normalize("/v1/things:batchGet"), "/v1/things:batchget");
    }
}
