//! Vue and Svelte single-file components (`.vue`, `.svelte`): their `<script>` blocks are
//! TypeScript or JavaScript, read with the TypeScript grammar; the rest of the file (template,
//! styles) is blanked in place, every byte but line breaks turned into a space, so that offsets,
//! lines and columns are the file's (a column after non-ASCII text blanked on the same line as
//! a `<script>` tag counts each of its bytes).

/// Whether `path` is a single-file component.
pub(crate) fn is_component(path: &str) -> bool {
    path.ends_with(".vue") || path.ends_with(".svelte")
}

/// The text extraction reads of the component at `path`: `source` with everything outside its
/// `<script>` blocks blanked. `None` for a path that is no component.
pub(crate) fn script_text(path: &str, source: &str) -> Option<String> {
    if !is_component(path) {
        return None;
    }
    let bytes = source.as_bytes();
    let mut text: Vec<u8> = bytes
        .iter()
        .map(|byte| match byte {
            b'\n' | b'\r' => *byte,
            _ => b' ',
        })
        .collect();
    // Tag names are matched without case; lowering ASCII keeps every offset.
    let lower = source.to_ascii_lowercase();
    let mut at = 0;
    while let Some(found) = lower.get(at..).and_then(|rest| rest.find("<script")) {
        let name_end = at + found + "<script".len();
        at = name_end;
        if !bytes
            .get(name_end)
            .is_some_and(|byte| byte.is_ascii_whitespace() || *byte == b'>')
        {
            // `<scripts>`, `<script-x>`: another tag.
            continue;
        }
        let Some(tag_end) = opening_tag_end(bytes, name_end) else {
            break;
        };
        at = tag_end + 1;
        if tag_end > 0 && bytes.get(tag_end - 1) == Some(&b'/') {
            // `<script src="…" />`: no content.
            continue;
        }
        let content_start = tag_end + 1;
        let content_end = lower
            .get(content_start..)
            .and_then(|rest| rest.find("</script"))
            .map_or(bytes.len(), |close| content_start + close);
        if let (Some(target), Some(content)) = (
            text.get_mut(content_start..content_end),
            bytes.get(content_start..content_end),
        ) {
            target.copy_from_slice(content);
        }
        at = content_end;
    }
    // Blanks are ASCII and each script's bounds are ASCII bytes (`>`, `<`), so the text is as
    // valid as the source.
    String::from_utf8(text).ok()
}

/// The offset of the `>` that ends an opening tag whose attributes start at `from`, past quoted
/// attribute values (`lang="ts"`, `generic="T extends A<B>"`).
fn opening_tag_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut quote: Option<u8> = None;
    for (offset, byte) in bytes.get(from..)?.iter().enumerate() {
        match (quote, *byte) {
            (Some(open), byte) if byte == open => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(*byte),
            (None, b'>') => return Some(from + offset),
            (None, _) => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_scripts_are_kept_at_their_offsets() {
        let source = "<template>\n  <div @click=\"go()\">{{ x }}</div>\n</template>\n\
                      <script setup lang=\"ts\" generic=\"T extends A<B>\">\nimport A from './A.vue'\n</script>\n\
                      <SCRIPT>export default {}</SCRIPT>\n<style>.a { color: red }</style>\n";
        let text = script_text("src/App.vue", source).expect("a component");
        assert_eq!(text.len(), source.len());
        assert_eq!(text.lines().count(), source.lines().count());
        let kept: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(
            kept,
            [
                "import",
                "A",
                "from",
                "'./A.vue'",
                "export",
                "default",
                "{}"
            ]
        );
        let import = source.find("import A").expect("the import");
        assert_eq!(text.get(import..import + 8), Some("import A"));
    }

    #[test]
    fn other_tags_self_closing_scripts_and_an_unclosed_script_are_read_as_html_is() {
        let text = script_text(
            "Widget.svelte",
            "<scripts>no</scripts><script src=\"x.js\" />é<script context=\"module\">\nlet a = 1;",
        )
        .expect("a component");
        assert_eq!(
            text.split_whitespace().collect::<Vec<_>>(),
            ["let", "a", "=", "1;"]
        );
        assert_eq!(script_text("a.ts", "<script>x</script>"), None);
        assert_eq!(
            script_text("a.vue", "<template><p>é</p></template>"),
            Some(" ".repeat("<template><p>é</p></template>".len()))
        );
    }
}
