//! Declarations without rules (see `node` and `resource` to `exclude`, and Other declarations, in
//! policies/LANGUAGE.md): nodes,
//! resources, enums, data, components, excludes, repos and ignored `service`/`test` blocks.

use super::cursor::ident;
use super::{Failed, ParseResult, Parser};
use crate::error::{Code, SpecError};
use crate::syntax::ast::{
    ComponentDecl, ComponentEntry, DataDecl, Decl, EntryValue, EnumDecl, FieldDecl, Ident,
    InfraDecl, Property, RepoDecl, StringLiteral,
};
use crate::syntax::token::TokenKind;

impl Parser<'_> {
    /// `NAME ":" type_ref [ props ]` after `node` or `resource`.
    pub(super) fn parse_infra(
        &mut self,
        make: fn(InfraDecl) -> Decl,
    ) -> (Option<Decl>, ParseResult<()>) {
        let name = match self.expect_name("a name") {
            Ok(name) => name,
            Err(failed) => return (None, Err(failed)),
        };
        // A header cut short keeps the name registered, with an empty type that is not checked.
        let missing_type = Ident {
            text: String::new(),
            span: name.span,
        };
        let mut decl = InfraDecl {
            name,
            type_name: missing_type,
            type_parameter: None,
            properties: Vec::new(),
        };
        let result = self.parse_infra_rest(&mut decl);
        (Some(make(decl)), result)
    }

    fn parse_infra_rest(&mut self, decl: &mut InfraDecl) -> ParseResult<()> {
        self.expect(TokenKind::Colon)?;
        decl.type_name = self.expect_name("a type name")?;
        if self.eat(TokenKind::LeftParen).is_some() {
            decl.type_parameter = Some(self.expect_name("a type parameter")?);
            self.expect(TokenKind::RightParen)?;
        }
        if self.eat(TokenKind::LeftBrace).is_some() {
            self.parse_properties(&mut decl.properties)?;
        }
        Ok(())
    }

    /// `{ prop }` after the `{`, through the closing `}`.
    fn parse_properties(&mut self, properties: &mut Vec<Property>) -> ParseResult<()> {
        loop {
            self.skip_separators();
            if self.eat(TokenKind::RightBrace).is_some() {
                return Ok(());
            }
            let key = self.expect_item_name("a property name or `}`")?;
            self.expect(TokenKind::Colon)?;
            let values = self.parse_values()?;
            properties.push(Property { key, values });
        }
    }

    /// `value { [","] value }`: ends at `;`, `}`, or a `NAME ":"` that starts the next key. A
    /// bracketed list `[ value { "," value } [","] ]` reads the same (as `paths` and `exclude`
    /// are written: `clients: ["sequelize", "bullmq"]`).
    pub(super) fn parse_values(&mut self) -> ParseResult<Vec<Ident>> {
        if self.eat(TokenKind::LeftBracket).is_some() {
            let mut values = vec![self.expect_value()?];
            loop {
                if self.eat(TokenKind::RightBracket).is_some() {
                    return Ok(values);
                }
                self.expect(TokenKind::Comma)?;
                if self.eat(TokenKind::RightBracket).is_some() {
                    return Ok(values);
                }
                values.push(self.expect_value()?);
            }
        }
        let mut values = vec![self.expect_value()?];
        loop {
            let has_comma = self.eat(TokenKind::Comma).is_some();
            let starts_key = self.at(TokenKind::Name) && self.nth(1).kind == TokenKind::Colon;
            if !has_comma && (!self.at_value() || starts_key || self.at_declaration_start()) {
                return Ok(values);
            }
            values.push(self.expect_value()?);
        }
    }

    fn at_value(&self) -> bool {
        matches!(
            self.current().kind,
            TokenKind::Name | TokenKind::Str | TokenKind::Number | TokenKind::Unit | TokenKind::Raw
        )
    }

    fn expect_value(&mut self) -> ParseResult<Ident> {
        if self.at_value() {
            Ok(ident(&self.bump()))
        } else {
            self.fail("a value")
        }
    }

    /// `NAME "{" NAME { [ "|" | "," ] NAME } "}"` after `enum`; `{}` parses and is checked later.
    pub(super) fn parse_enum(&mut self) -> (Option<Decl>, ParseResult<()>) {
        let name = match self.expect_name("a name") {
            Ok(name) => name,
            Err(failed) => return (None, Err(failed)),
        };
        let mut decl = EnumDecl {
            name,
            values: Vec::new(),
        };
        let result = self.parse_enum_values(&mut decl.values);
        (Some(Decl::Enum(decl)), result)
    }

    fn parse_enum_values(&mut self, values: &mut Vec<Ident>) -> ParseResult<()> {
        self.expect(TokenKind::LeftBrace)?;
        loop {
            if self.eat(TokenKind::RightBrace).is_some() {
                return Ok(());
            }
            if !values.is_empty()
                && (self.eat(TokenKind::Pipe).is_some() || self.eat(TokenKind::Comma).is_some())
            {
                values.push(self.expect_name("an enum value")?);
                continue;
            }
            let expected = if values.is_empty() {
                "an enum value or `}`"
            } else {
                "`|`, an enum value or `}`"
            };
            values.push(self.expect_name(expected)?);
        }
    }

    /// `NAME "{" { field } "}"` after `data`.
    pub(super) fn parse_data(&mut self) -> (Option<Decl>, ParseResult<()>) {
        let name = match self.expect_name("a name") {
            Ok(name) => name,
            Err(failed) => return (None, Err(failed)),
        };
        let mut decl = DataDecl {
            name,
            fields: Vec::new(),
        };
        let result = self.parse_fields(&mut decl.fields);
        (Some(Decl::Data(decl)), result)
    }

    fn parse_fields(&mut self, fields: &mut Vec<FieldDecl>) -> ParseResult<()> {
        self.expect(TokenKind::LeftBrace)?;
        loop {
            self.skip_separators();
            if self.eat(TokenKind::RightBrace).is_some() {
                return Ok(());
            }
            let name = self.expect_item_name("a field name or `}`")?;
            self.expect(TokenKind::Colon)?;
            let type_expr = self.parse_type_expr(0)?;
            fields.push(FieldDecl { name, type_expr });
        }
    }

    /// `NAME "{" { comp_entry sep } "}"` after `component`.
    pub(super) fn parse_component(&mut self) -> (Option<Decl>, ParseResult<()>) {
        let name = match self.expect_name("a name") {
            Ok(name) => name,
            Err(failed) => return (None, Err(failed)),
        };
        let mut decl = ComponentDecl {
            name,
            entries: Vec::new(),
            is_truncated: false,
        };
        let result = self.parse_component_entries(&mut decl.entries);
        decl.is_truncated = result.is_err();
        (Some(Decl::Component(decl)), result)
    }

    fn parse_component_entries(&mut self, entries: &mut Vec<ComponentEntry>) -> ParseResult<()> {
        self.expect(TokenKind::LeftBrace)?;
        loop {
            self.skip_separators();
            if self.eat(TokenKind::RightBrace).is_some() {
                return Ok(());
            }
            let key = self.expect_item_name("a key or `}`")?;
            self.expect(TokenKind::Colon)?;
            let value = match key.text.as_str() {
                "runs_on" | "role" | "layer" | "repo" => {
                    EntryValue::Name(self.expect_name("a name")?)
                }
                "paths" => {
                    let is_bracketed = self.at(TokenKind::LeftBracket);
                    let globs = self.parse_globs()?;
                    if !is_bracketed && self.at(TokenKind::Comma) {
                        return self.fail_unbracketed_globs();
                    }
                    EntryValue::Globs(globs)
                }
                "implements" | "consumes" | "handles" => EntryValue::Names(self.parse_name_list()?),
                "depends_on" => {
                    if self.at(TokenKind::LeftBracket)
                        && self.nth(1).kind == TokenKind::RightBracket
                    {
                        self.bump();
                        self.bump();
                        EntryValue::Names(Vec::new())
                    } else {
                        EntryValue::Names(self.parse_name_list()?)
                    }
                }
                "public" => {
                    if self.at(TokenKind::LeftBracket) {
                        EntryValue::Globs(self.parse_globs()?)
                    } else {
                        let mut globs = vec![self.expect_string()?];
                        while self.eat(TokenKind::Comma).is_some() {
                            globs.push(self.expect_string()?);
                        }
                        EntryValue::Globs(globs)
                    }
                }
                _ => EntryValue::Other(self.parse_values()?),
            };
            entries.push(ComponentEntry { key, value });
        }
    }

    /// At the `,` after one unbracketed glob (`paths: "a/**", "b/**"`): "expected a key or
    /// `}`", with the help that a list of globs is written in brackets.
    fn fail_unbracketed_globs<T>(&mut self) -> ParseResult<T> {
        let token = self.current().clone();
        let error = SpecError::new(
            Code::UnexpectedToken,
            token.span,
            format!("expected a key or `}}`, found {}", token.describe()),
        )
        .with_help("several globs are a list in brackets: `paths: [\"a/**\", \"b/**\"]`");
        self.push_error(error);
        Err(Failed)
    }

    /// `STRING | "[" STRING { "," STRING } [ "," ] "]"`
    fn parse_globs(&mut self) -> ParseResult<Vec<StringLiteral>> {
        if self.eat(TokenKind::LeftBracket).is_none() {
            return Ok(vec![self.expect_string()?]);
        }
        let mut globs = vec![self.expect_string()?];
        loop {
            if self.eat(TokenKind::RightBracket).is_some() {
                return Ok(globs);
            }
            if self.eat(TokenKind::Comma).is_none() {
                return self.fail("`,` or `]`");
            }
            if self.eat(TokenKind::RightBracket).is_some() {
                return Ok(globs);
            }
            globs.push(self.expect_string()?);
        }
    }

    /// `NAME { "," NAME } | "[" NAME { "," NAME } [ "," ] "]"`
    fn parse_name_list(&mut self) -> ParseResult<Vec<Ident>> {
        let is_bracketed = self.eat(TokenKind::LeftBracket).is_some();
        let mut names = vec![self.expect_name("a name")?];
        loop {
            if is_bracketed && self.eat(TokenKind::RightBracket).is_some() {
                return Ok(names);
            }
            if self.eat(TokenKind::Comma).is_none() {
                return if is_bracketed {
                    self.fail("`,` or `]`")
                } else {
                    Ok(names)
                };
            }
            if is_bracketed && self.eat(TokenKind::RightBracket).is_some() {
                return Ok(names);
            }
            names.push(self.expect_name("a name")?);
        }
    }

    /// `NAME STRING [ "branch" "=" STRING ]` after `repo`.
    pub(super) fn parse_repo(&mut self) -> ParseResult<Decl> {
        let name = self.expect_name("a name")?;
        let url = self.expect_string()?;
        let branch = if self.eat_word("branch").is_some() {
            self.expect(TokenKind::Equals)?;
            Some(self.expect_string()?)
        } else {
            None
        };
        Ok(Decl::Repo(RepoDecl { name, url, branch }))
    }

    /// `STRING { "," STRING } | "[" STRING { "," STRING } [ "," ] "]"` after `exclude`
    /// (see `exclude` in policies/LANGUAGE.md). Without brackets, a comma goes on to another string, as that section's own example
    /// `exclude "**/*.test.ts", "**/__tests__/**"` writes it.
    pub(super) fn parse_exclude(&mut self) -> ParseResult<Decl> {
        if self.at(TokenKind::LeftBracket) {
            return self.parse_globs().map(Decl::Exclude);
        }
        let mut globs = vec![self.expect_string()?];
        while self.eat(TokenKind::Comma).is_some() {
            globs.push(self.expect_string()?);
        }
        Ok(Decl::Exclude(globs))
    }

    /// `NAME balanced` after `service` or `test`: only the braces are checked.
    pub(super) fn parse_ignored(&mut self, keyword: Ident) -> ParseResult<Decl> {
        let name = self.expect_name("a name")?;
        self.expect(TokenKind::LeftBrace)?;
        let mut depth = 1_u32;
        loop {
            match self.current().kind {
                TokenKind::Eof => return self.fail("`}`"),
                TokenKind::LeftBrace => depth += 1,
                TokenKind::RightBrace => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return Ok(Decl::Ignored { keyword, name });
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }
}
