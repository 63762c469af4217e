//! A small XML tag scanner for MSBuild files: start and end tags with their attributes, and
//! the text after a tag; no tree, no validation, no DTDs. Malformed input ends the scan early.

/// One start or end tag.
pub(super) struct Tag<'a> {
    /// The element name.
    pub name: &'a str,
    /// `name="value"` pairs, values decoded.
    pub attributes: Vec<(String, String)>,
    /// `</Name>`.
    pub is_closing: bool,
    /// `<Name />`.
    pub is_self_closing: bool,
}

/// The tags of an XML text in order, past comments, CDATA sections, processing instructions
/// and declarations; entities in attribute values are decoded for the five predefined ones.
pub(super) struct Tags<'a> {
    text: &'a str,
    position: usize,
}

impl<'a> Tags<'a> {
    /// The tags of `text`.
    pub fn new(text: &'a str) -> Self {
        Self { text, position: 0 }
    }

    /// The text from the current position to the next tag (the content of the element just
    /// opened), entities decoded.
    pub fn text_until_tag(&self) -> String {
        let rest = self.text.get(self.position..).unwrap_or_default();
        let end = rest.find('<').unwrap_or(rest.len());
        decode(rest.get(..end).unwrap_or_default())
    }
}

impl<'a> Iterator for Tags<'a> {
    type Item = Tag<'a>;

    fn next(&mut self) -> Option<Tag<'a>> {
        loop {
            let rest = self.text.get(self.position..)?;
            let start = rest.find('<')?;
            let after = rest.get(start..)?;
            for (open, close) in [
                ("<!--", "-->"),
                ("<![CDATA[", "]]>"),
                ("<?", "?>"),
                ("<!", ">"),
            ] {
                if after.starts_with(open) {
                    let end = after
                        .find(close)
                        .map_or(after.len(), |end| end + close.len());
                    self.position += start + end;
                    break;
                }
            }
            if after.starts_with("<!") || after.starts_with("<?") {
                continue;
            }
            let end = tag_end(after)?;
            self.position += start + end + 1;
            let inner = after.get(1..end)?;
            let (is_closing, inner) = match inner.strip_prefix('/') {
                Some(inner) => (true, inner),
                None => (false, inner),
            };
            let (is_self_closing, inner) = match inner.trim_end().strip_suffix('/') {
                Some(inner) => (true, inner),
                None => (false, inner),
            };
            let name_end = inner
                .find(|c: char| c.is_whitespace())
                .unwrap_or(inner.len());
            let name = inner.get(..name_end)?;
            return Some(Tag {
                name,
                attributes: attributes(inner.get(name_end..).unwrap_or_default()),
                is_closing,
                is_self_closing,
            });
        }
    }
}

/// The offset of the `>` that ends the tag `text` starts with, outside quoted values.
fn tag_end(text: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (offset, c) in text.char_indices() {
        match (quote, c) {
            (Some(open), _) if c == open => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some(offset),
            (None, _) => {}
        }
    }
    None
}

/// `name="value"` pairs (either quote).
fn attributes(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(equals) = rest.find('=') {
        let name = rest.get(..equals).unwrap_or_default().trim();
        let after = rest.get(equals + 1..).unwrap_or_default().trim_start();
        let Some(quote) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            break;
        };
        let value_text = after.get(1..).unwrap_or_default();
        let Some(close) = value_text.find(quote) else {
            break;
        };
        let name = name.rsplit(char::is_whitespace).next().unwrap_or(name);
        found.push((
            name.to_owned(),
            decode(value_text.get(..close).unwrap_or_default()),
        ));
        rest = value_text.get(close + 1..).unwrap_or_default();
    }
    found
}

/// Decodes the five predefined XML entities.
fn decode(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}
