//! Type indexes of the languages whose imports name types, not files: Java and Kotlin (one
//! index, since each imports the other's classes) and C#.
//!
//! The index is filled from what each source file declares: its package or namespaces and the
//! top-level declarations (`crate::lang::java`, `crate::lang::kotlin`, `crate::lang::csharp` know the syntax),
//! read in the same pass that extracts the file's facts. Names are looked up here once every
//! file has been read (`crate::resolve::deferred`). For C# the index also holds the extension methods
//! of top-level static classes, by method name, because a call `x.AddInfrastructure()` names
//! its static class nowhere.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::OnceLock;

/// The declarations of one file: `(package or namespace, type name)` pairs.
pub(crate) type Declarations = Vec<(String, String)>;

/// A C# extension method (`public static IServiceCollection AddInfrastructure(this
/// IServiceCollection services, IConfiguration configuration)`), as declared in a top-level
/// static class.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub(crate) struct ExtensionMethod {
    /// The method's name.
    pub name: String,
    /// The namespace of the static class.
    pub namespace: String,
    /// The static class's name.
    pub class: String,
    /// The fewest arguments a call passes besides the receiver (parameters without a default).
    pub min_arguments: usize,
    /// The most arguments a call passes besides the receiver; `None` with a `params` array.
    pub max_arguments: Option<usize>,
    /// Whether the class is `public`; an `internal` one is seen only inside its project.
    pub is_public: bool,
}

impl ExtensionMethod {
    /// Whether a call with `arguments` arguments (besides the receiver) can call it.
    pub fn accepts(&self, arguments: usize) -> bool {
        arguments >= self.min_arguments && self.max_arguments.is_none_or(|max| arguments <= max)
    }
}

/// What a C# file's `global using` directives give every file of its project.
#[derive(Debug, Default)]
pub(crate) struct Globals {
    /// The namespaces (`global using Acme.Orders;`).
    pub usings: Vec<String>,
    /// The aliases with what they name (`global using Order = Acme.Orders.Order;`).
    pub aliases: Vec<(String, String)>,
}

/// Package (or namespace) → type name → the files declaring it, bytewise.
#[derive(Debug, Default)]
pub(crate) struct TypeIndex {
    packages: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    /// C# extension methods by name, each with its declaring file, sorted.
    extensions: BTreeMap<String, BTreeSet<(ExtensionMethod, String)>>,
    /// Namespaces of C# `global using` directives anywhere in the project.
    global_usings: BTreeSet<String>,
    /// The same, by the file that declares them.
    global_usings_by_file: BTreeMap<String, Vec<String>>,
    /// The aliases of C# `global using` directives (alias, what it names) by the file that
    /// declares them.
    global_aliases_by_file: BTreeMap<String, Vec<(String, String)>>,
    /// C# `const string` (and Java `static final String`) fields by their last name segment: (type path and name without the
    /// namespace, value), e.g. `ADMINISTRATORS` → (`Constants.Roles.ADMINISTRATORS`,
    /// `Administrators`).
    constants: BTreeMap<String, BTreeSet<(String, String)>>,
    /// The packages MyBatis `@MapperScan` annotations name (Java and Kotlin).
    mapper_packages: BTreeSet<String>,
    /// What [`TypeIndex::owns_package`] reads, computed on its first call after the last
    /// addition: every declared package with each of its dot-prefixes, and the leading segments
    /// all declared packages share.
    owned: OnceLock<(HashSet<String>, Vec<String>)>,
    /// Every declared type name with the packages that declare it (in order), computed on the
    /// first [`TypeIndex::declares_name`] or [`TypeIndex::packages_declaring`] after the last
    /// addition.
    names: OnceLock<HashMap<String, Vec<String>, crate::syntax::Fnv>>,
    /// A digest of each package's types and files ([`TypeIndex::answer`]), computed on its first
    /// call after the last addition.
    digests: OnceLock<HashMap<String, String, crate::syntax::Fnv>>,
    /// The answers given since the last addition ([`TypeIndex::answer`]): the files of a
    /// project ask the same questions (a common type's name, a namespace's projects) thousands
    /// of times over.
    answers: crate::resolve::context::answers::Answers<TypeQuestion>,
}

impl TypeIndex {
    /// Adds the declarations of a Java or Kotlin file, the packages its MyBatis
    /// `@MapperScan` names and its string constants (Java's `static final String` fields).
    pub fn add_jvm(
        &mut self,
        path: &str,
        declarations: Declarations,
        mapper_packages: Vec<String>,
        constants: Vec<(String, String)>,
    ) {
        self.mapper_packages.extend(mapper_packages);
        self.add(path, declarations);
        self.add_constants(constants);
    }

    fn add_constants(&mut self, constants: Vec<(String, String)>) {
        for (key, value) in constants {
            let last = key.rsplit('.').next().unwrap_or(&key).to_owned();
            self.constants.entry(last).or_default().insert((key, value));
        }
    }

    /// Whether a MyBatis `@MapperScan` of the project names `package` or a package above it:
    /// its interfaces are mappers.
    pub fn is_mapper_package(&self, package: &str) -> bool {
        self.mapper_packages.iter().any(|scanned| {
            package
                .strip_prefix(scanned.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        })
    }

    /// Adds the declarations of a C# file, its `global using` namespaces and aliases, its `const string`
    /// fields (`csharp::string_constants`) and its extension methods.
    pub fn add_csharp(
        &mut self,
        path: &str,
        declarations: Declarations,
        globals: Globals,
        constants: Vec<(String, String)>,
        extensions: Vec<ExtensionMethod>,
    ) {
        let Globals {
            usings: global_usings,
            aliases: global_aliases,
        } = globals;
        self.global_usings.extend(global_usings.iter().cloned());
        if !global_usings.is_empty() {
            self.global_usings_by_file
                .insert(path.to_owned(), global_usings);
        }
        if !global_aliases.is_empty() {
            self.global_aliases_by_file
                .insert(path.to_owned(), global_aliases);
        }
        self.add(path, declarations);
        for extension in extensions {
            self.extensions
                .entry(extension.name.clone())
                .or_default()
                .insert((extension, path.to_owned()));
        }
        self.add_constants(constants);
    }

    /// The value of the C# `const string` (or Java `static final String`) an expression names (`Constants.Roles.ADMINISTRATORS`,
    /// namespace-qualified or not, or `Roles.ADMINISTRATORS` / `ADMINISTRATORS` from inside the
    /// declaring type): the constants whose type path and name end with the written one, or that
    /// the written one ends with; `None` unless they agree on one value.
    pub fn string_constant(&self, written: &str) -> Option<&str> {
        let written: String = written.chars().filter(|c| !c.is_whitespace()).collect();
        let written = written.strip_prefix("global::").unwrap_or(&written);
        let last = written.rsplit('.').next()?;
        let ends_with = |long: &str, short: &str| {
            long == short
                || long
                    .strip_suffix(short)
                    .is_some_and(|rest| rest.ends_with('.'))
        };
        let mut values = self
            .constants
            .get(last)?
            .iter()
            .filter(|(key, _)| ends_with(key, written) || ends_with(written, key))
            .map(|(_, value)| value.as_str());
        let first = values.next()?;
        values.all(|value| value == first).then_some(first)
    }

    fn add(&mut self, path: &str, declarations: Declarations) {
        self.owned.take();
        self.names.take();
        self.digests.take();
        self.answers.forget();
        for (package, name) in declarations {
            self.packages
                .entry(package)
                .or_default()
                .entry(name)
                .or_default()
                .insert(path.to_owned());
        }
    }

    /// Whether some package declares a type named `name` (one hash lookup: most dotted chains
    /// of a file name no project type at all).
    pub fn declares_name(&self, name: &str) -> bool {
        self.names().contains_key(name)
    }

    /// The packages that declare a type named `name`, in order.
    pub fn packages_declaring(&self, name: &str) -> &[String] {
        self.names().get(name).map_or(&[], Vec::as_slice)
    }

    fn names(&self) -> &HashMap<String, Vec<String>, crate::syntax::Fnv> {
        self.names.get_or_init(|| {
            let mut names: HashMap<String, Vec<String>, crate::syntax::Fnv> = HashMap::default();
            for (package, types) in &self.packages {
                for name in types.keys() {
                    names.entry(name.clone()).or_default().push(package.clone());
                }
            }
            names
        })
    }

    /// The files declaring `name` in `package`.
    pub fn files_of(&self, package: &str, name: &str) -> Option<&BTreeSet<String>> {
        self.packages.get(package)?.get(name)
    }

    /// The C# extension methods named `name`, each with its declaring file, sorted.
    pub fn extension_methods(
        &self,
        name: &str,
    ) -> impl Iterator<Item = (&ExtensionMethod, &str)> + '_ {
        self.extensions
            .get(name)
            .into_iter()
            .flatten()
            .map(|(method, file)| (method, file.as_str()))
    }

    /// The types of a package, if the project declares it.
    pub fn package(&self, package: &str) -> Option<&BTreeMap<String, BTreeSet<String>>> {
        self.packages.get(package)
    }

    /// Whether the project declares types in `package` (itself, not a package below it).
    pub fn declares_package(&self, package: &str) -> bool {
        self.packages.contains_key(package)
    }

    /// Whether `package` belongs to the project: the project declares it or a package below it,
    /// or it lies under the package prefix that all the project's packages share (at least two
    /// segments: `com.shop.missing` in a `com.shop.*` project), so a missing name there is an
    /// unresolved internal import, not a library. Libraries that share only an organisation
    /// prefix stay external (`org.springframework.stereotype` in `org.springframework.samples.*`).
    pub fn owns_package(&self, package: &str) -> bool {
        let (declared, _) = self.owned_packages();
        declared.contains(package) || self.owns_package_itself(package)
    }

    /// Whether the project declares `package` or a package below it.
    pub fn declares_or_encloses(&self, package: &str) -> bool {
        self.owned_packages().0.contains(package)
    }

    /// [`TypeIndex::owns_package`] without the packages above declared ones: the project
    /// declares `package`, or it lies under the prefix all the project's packages share. A
    /// wildcard import names a package whole, so a package the project only declares packages
    /// below (`kotlin.coroutines` beside a shim in `kotlin.coroutines.jvm.internal`) is a
    /// library's.
    pub fn owns_package_itself(&self, package: &str) -> bool {
        let (_, common) = self.owned_packages();
        self.packages.contains_key(package)
            || common.len() >= 2 && {
                let segments: Vec<&str> = package.split('.').collect();
                segments.len() >= common.len()
                    && segments.iter().zip(common).all(|(a, b)| *a == b.as_str())
            }
    }

    /// The declared packages with every package above them, and the package segments all the
    /// project's packages share.
    fn owned_packages(&self) -> &(HashSet<String>, Vec<String>) {
        self.owned.get_or_init(|| {
            let mut declared = HashSet::new();
            for known in self.packages.keys() {
                declared.insert(known.clone());
                for (end, _) in known.match_indices('.') {
                    declared.insert(known.get(..end).unwrap_or_default().to_owned());
                }
            }
            let mut known = self.packages.keys().filter(|name| !name.is_empty());
            let mut common: Vec<String> = known
                .next()
                .map(|first| first.split('.').map(str::to_owned).collect())
                .unwrap_or_default();
            for name in known {
                let shared = common
                    .iter()
                    .zip(name.split('.'))
                    .take_while(|(a, b)| a.as_str() == *b)
                    .count();
                common.truncate(shared);
            }
            (declared, common)
        })
    }

    /// The namespaces of C# `global using` directives in the project.
    pub fn global_usings(&self) -> &BTreeSet<String> {
        &self.global_usings
    }

    /// The files with C# `global using` aliases, with their aliases and what they name.
    pub fn global_aliases_by_file(&self) -> impl Iterator<Item = (&str, &[(String, String)])> + '_ {
        self.global_aliases_by_file
            .iter()
            .map(|(file, aliases)| (file.as_str(), aliases.as_slice()))
    }

    /// The files with C# `global using` directives, with their namespaces.
    pub fn global_usings_by_file(&self) -> impl Iterator<Item = (&str, &[String])> + '_ {
        self.global_usings_by_file
            .iter()
            .map(|(file, namespaces)| (file.as_str(), namespaces.as_slice()))
    }
}

/// What a Java, Kotlin or C# file declares, for the project's type indexes
/// ([`super::ProjectContext::add_declarations`]): its packages or namespaces and top-level types (Kotlin:
/// top-level functions, properties, type aliases and the `@file:JvmName` facade; C#: `global
/// using` namespaces, `const string` fields and the extension methods of static classes).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TypeDeclarations(pub(super) Declared);

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(super) enum Declared {
    Jvm {
        declarations: Declarations,
        /// The packages a MyBatis `@MapperScan` of the file names.
        mapper_packages: Vec<String>,
        /// The Java `static final String` fields with a literal value, by type path and name
        /// without the package (`AuthoritiesConstants.ADMIN`).
        #[serde(default)]
        constants: Vec<(String, String)>,
    },
    CSharp {
        declarations: Declarations,
        global_usings: Vec<String>,
        global_aliases: Vec<(String, String)>,
        constants: Vec<(String, String)>,
        extensions: Vec<ExtensionMethod>,
    },
    /// A Rust file: the names its module declares at its top level.
    Rust(RustNames),
}

/// The names a Rust file's module declares at its top level (items, `use` bindings, `extern
/// crate` aliases and every identifier in a top-level macro invocation), for telling a missing
/// module in a path (`use crate::missing::X`) from an item of the file (`use crate::Enum::A`).
/// `open` when the module may hold names nobody can list without expanding it: a glob `use`
/// (`pub use inner::*;`) or an `include!`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct RustNames {
    /// The names, sorted and distinct.
    pub names: Vec<String>,
    /// Whether the module may declare names not listed.
    pub open: bool,
    /// The modules the file declares with a `#[path = "…"]` attribute (`#[path = "gen/x.rs"] mod
    /// x;`, also inside inline modules): each one's module path within the file (the inline
    /// modules around it, then its name) and the attribute's path as written.
    #[serde(default)]
    pub path_modules: Vec<(Vec<String>, String)>,
}

impl TypeDeclarations {
    /// What a Java or Kotlin file declares, with the packages its MyBatis `@MapperScan` names.
    pub(crate) fn jvm_scanning(declarations: Declarations, mapper_packages: Vec<String>) -> Self {
        Self(Declared::Jvm {
            declarations,
            mapper_packages,
            constants: Vec::new(),
        })
    }

    /// What a Java file declares, with its string constants (`static final String` fields).
    pub(crate) fn with_jvm_constants(mut self, found: Vec<(String, String)>) -> Self {
        if let Declared::Jvm { constants, .. } = &mut self.0 {
            *constants = found;
        }
        self
    }

    /// What a C# file declares.
    pub(crate) fn csharp(
        declarations: Declarations,
        global_usings: Vec<String>,
        global_aliases: Vec<(String, String)>,
        constants: Vec<(String, String)>,
        extensions: Vec<ExtensionMethod>,
    ) -> Self {
        Self(Declared::CSharp {
            declarations,
            global_usings,
            global_aliases,
            constants,
            extensions,
        })
    }

    /// What a Rust file's module declares at its top level.
    pub(crate) fn rust(names: RustNames) -> Self {
        Self(Declared::Rust(names))
    }

    /// The `(namespace, type)` pairs of the file's top-level C# types; `None` for Java and
    /// Kotlin.
    pub(crate) fn csharp_types(&self) -> Option<&Declarations> {
        match &self.0 {
            Declared::CSharp { declarations, .. } => Some(declarations),
            Declared::Jvm { .. } | Declared::Rust(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(packages: &[&str]) -> TypeIndex {
        let mut index = TypeIndex::default();
        for (number, package) in packages.iter().enumerate() {
            index.add(
                &format!("src/F{number}.java"),
                vec![((*package).to_owned(), format!("T{number}"))],
            );
        }
        index
    }

    #[test]
    fn libraries_sharing_only_an_organisation_prefix_are_not_the_project() {
        let petclinic = index(&[
            "org.springframework.samples.petclinic.owner",
            "org.springframework.samples.petclinic.vet",
        ]);
        assert!(petclinic.owns_package("org.springframework.samples.petclinic.owner"));
        assert!(petclinic.owns_package("org.springframework.samples.petclinic.missing"));
        assert!(petclinic.owns_package("org.springframework.samples"));
        assert!(!petclinic.owns_package("org.springframework.stereotype"));
        assert!(!petclinic.owns_package("org.springframework.data.domain"));
    }

    #[test]
    fn a_missing_package_under_the_shared_prefix_is_internal() {
        let shop = index(&["com.shop.orders", "com.shop.billing"]);
        assert!(shop.owns_package("com.shop.missing"));
        assert!(!shop.owns_package("com.other.thing"));
        let mixed = index(&["com.a.x", "org.b.y"]);
        assert!(
            !mixed.owns_package("com.a.z"),
            "no shared prefix: only declared packages are internal"
        );
    }

    #[test]
    fn a_package_above_a_declared_one_is_not_itself_the_project_s() {
        let coroutines = index(&["kotlinx.coroutines", "kotlin.coroutines.jvm.internal"]);
        assert!(coroutines.owns_package("kotlin.coroutines"));
        assert!(!coroutines.owns_package_itself("kotlin.coroutines"));
        assert!(!coroutines.owns_package_itself("kotlin.test"));
        assert!(coroutines.owns_package_itself("kotlin.coroutines.jvm.internal"));
        assert!(coroutines.owns_package_itself("kotlinx.coroutines"));
        let shop = index(&["com.shop.orders", "com.shop.billing"]);
        assert!(
            shop.owns_package_itself("com.shop.missing"),
            "under the shared prefix"
        );
        assert!(!shop.owns_package_itself("com"));
    }
}

/// Which type index a question is about ([`crate::probes::Probe::Types`]).
// Short names: the cache writes a Java, Kotlin or C# file's lookups by the hundred.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum IndexOf {
    /// Java and Kotlin.
    #[serde(rename = "J")]
    Jvm,
    /// C#.
    #[serde(rename = "C")]
    CSharp,
}

/// A lookup in a type index, as [`Types`] records it ([`crate::probes::Probe::Types`]).
// Short names: the cache writes a Java, Kotlin or C# file's lookups by the hundred.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TypeQuestion {
    /// Where a type name is declared: the packages that declare it, each with its files
    /// ([`TypeIndex::declares_name`], [`TypeIndex::packages_declaring`],
    /// [`TypeIndex::files_of`]: one question per name, whichever of them asked).
    #[serde(rename = "N")]
    Name(String),
    /// The types of a package with their files ([`TypeIndex::package`]).
    #[serde(rename = "P")]
    Package(String),
    /// Whether the project declares types in a package ([`TypeIndex::declares_package`]).
    #[serde(rename = "D")]
    Declares(String),
    /// [`TypeIndex::owns_package`].
    #[serde(rename = "O")]
    Owns(String),
    /// [`TypeIndex::owns_package_itself`].
    #[serde(rename = "OI")]
    OwnsItself(String),
    /// [`TypeIndex::extension_methods`].
    #[serde(rename = "E")]
    ExtensionMethods(String),
    /// [`TypeIndex::string_constant`].
    #[serde(rename = "S")]
    StringConstant(String),
    /// [`TypeIndex::declares_or_encloses`].
    #[serde(rename = "DE")]
    DeclaresOrEncloses(String),
    /// [`TypeIndex::is_mapper_package`].
    #[serde(rename = "M")]
    IsMapperPackage(String),
}

/// The text an answer is recorded as: short ones in full, long ones by a digest.
pub(crate) fn answer_text(text: String) -> String {
    if text.len() <= 160 {
        return text;
    }
    use sha2::Digest as _;
    named_digest("digest", &sha2::Sha256::digest(text.as_bytes()))
}

/// The first 16 bytes of the SHA-256 of `text`, in hex ([`TypeIndex::part_contents`]).
fn part_digest(text: &str) -> String {
    use sha2::Digest as _;
    hex16(&sha2::Sha256::digest(text.as_bytes()))
}

/// The first 16 bytes of `digest`, in hex.
fn hex16(digest: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(32);
    for byte in digest.get(..16).unwrap_or_default() {
        for nibble in [byte >> 4, byte & 0x0f] {
            text.push(char::from(
                DIGITS.get(usize::from(nibble)).copied().unwrap_or(b'0'),
            ));
        }
    }
    text
}

impl TypeQuestion {
    /// The part of the index under `tag` whose contents the answer depends on
    /// ([`TypeIndex::part_contents`]).
    pub(crate) fn part(&self, tag: char) -> String {
        match self {
            TypeQuestion::Name(name) => format!("{tag}N {name}"),
            TypeQuestion::Package(package) => format!("{tag}P {package}"),
            TypeQuestion::Declares(_)
            | TypeQuestion::Owns(_)
            | TypeQuestion::OwnsItself(_)
            | TypeQuestion::DeclaresOrEncloses(_) => format!("{tag}K"),
            TypeQuestion::ExtensionMethods(name) => format!("{tag}E {name}"),
            TypeQuestion::StringConstant(_) => format!("{tag}S"),
            TypeQuestion::IsMapperPackage(_) => format!("{tag}M"),
        }
    }
}

impl IndexOf {
    /// The tag of this index's parts ([`TypeIndex::part_contents`]).
    pub(crate) fn tag(self) -> char {
        match self {
            IndexOf::Jvm => 'J',
            IndexOf::CSharp => 'C',
        }
    }
}

/// `name` and the first 16 bytes of `digest` in hex: an answer too long to keep in full.
fn named_digest(name: &str, digest: &[u8]) -> String {
    format!("{name} {}", hex16(digest))
}

impl TypeIndex {
    /// The answer to `question`, as [`Types`] records it: a package's types and files by a
    /// digest of them (a package may hold hundreds of types), the others by [`answer_text`].
    pub(crate) fn answer(&self, question: &TypeQuestion) -> String {
        self.answers
            .get_or(question, || self.answer_afresh(question))
    }

    /// [`TypeIndex::answer`], computed.
    fn answer_afresh(&self, question: &TypeQuestion) -> String {
        match question {
            TypeQuestion::Package(package) => self
                .package_digests()
                .get(package.as_str())
                .cloned()
                .unwrap_or_default(),
            TypeQuestion::Name(name) => {
                let mut text = String::new();
                for package in self.packages_declaring(name) {
                    text.push_str(package);
                    for file in self.files_of(package, name).into_iter().flatten() {
                        text.push('\0');
                        text.push_str(file);
                    }
                    text.push('\n');
                }
                answer_text(text)
            }
            TypeQuestion::Declares(package) => self.declares_package(package).to_string(),
            TypeQuestion::Owns(package) => self.owns_package(package).to_string(),
            TypeQuestion::OwnsItself(package) => self.owns_package_itself(package).to_string(),
            TypeQuestion::ExtensionMethods(name) => answer_text(format!(
                "{:?}",
                self.extension_methods(name).collect::<Vec<_>>()
            )),
            TypeQuestion::StringConstant(written) => {
                answer_text(format!("{:?}", self.string_constant(written)))
            }
            TypeQuestion::DeclaresOrEncloses(package) => {
                self.declares_or_encloses(package).to_string()
            }
            TypeQuestion::IsMapperPackage(package) => self.is_mapper_package(package).to_string(),
        }
    }

    /// What each part of the index that lookups read holds ([`TypeQuestion::part`]), by the
    /// part's name under `tag`: each declared name's packages and files, each package's types,
    /// the set of packages, each extension method name's methods, the string constants, the
    /// MyBatis mapper packages and the `global using` directives. Two project states whose
    /// parts have the same contents answer every lookup of those parts alike; the engine's
    /// cache compares them to keep a file's facts without asking its lookups again.
    pub(crate) fn part_contents(&self, tag: char, parts: &mut BTreeMap<String, String>) {
        use sha2::Digest as _;
        // What `TypeQuestion::Name` answers, hashed as it is written.
        for (name, packages) in self.names() {
            let mut hasher = sha2::Sha256::new();
            for package in packages {
                hasher.update(package.as_bytes());
                for file in self.files_of(package, name).into_iter().flatten() {
                    hasher.update(b"\0");
                    hasher.update(file.as_bytes());
                }
                hasher.update(b"\n");
            }
            parts.insert(format!("{tag}N {name}"), hex16(&hasher.finalize()));
        }
        for (package, digest) in self.package_digests() {
            parts.insert(format!("{tag}P {package}"), digest.clone());
        }
        let mut packages = String::new();
        for package in self.packages.keys() {
            packages.push_str(package);
            packages.push('\n');
        }
        parts.insert(format!("{tag}K"), part_digest(&packages));
        for name in self.extensions.keys() {
            let answer = self.answer(&TypeQuestion::ExtensionMethods(name.clone()));
            parts.insert(format!("{tag}E {name}"), part_digest(&answer));
        }
        parts.insert(
            format!("{tag}S"),
            part_digest(&format!("{:?}", self.constants)),
        );
        parts.insert(
            format!("{tag}M"),
            part_digest(&format!("{:?}", self.mapper_packages)),
        );
        parts.insert(
            format!("{tag}G"),
            part_digest(&format!(
                "{:?}\n{:?}",
                self.global_usings_by_file, self.global_aliases_by_file
            )),
        );
    }

    /// A digest of each declared package's types and their files, computed once.
    fn package_digests(&self) -> &HashMap<String, String, crate::syntax::Fnv> {
        self.digests.get_or_init(|| {
            use sha2::Digest as _;
            self.packages
                .iter()
                .map(|(package, types)| {
                    let mut hasher = sha2::Sha256::new();
                    for (name, files) in types {
                        hasher.update(name.as_bytes());
                        for file in files {
                            hasher.update(b"\0");
                            hasher.update(file.as_bytes());
                        }
                        hasher.update(b"\n");
                    }
                    (package.clone(), named_digest("package", &hasher.finalize()))
                })
                .collect()
        })
    }
}
