//! C# project files: the global usings a `.csproj` gives every `.cs` file under its folder.
//!
//! A project's usings are, in MSBuild's evaluation order, the `<Using>` items of the nearest
//! `Directory.Build.props` at or above the project folder (and of the ones it imports with
//! `GetPathOfFileAbove`), the SDK's implicit usings when `<ImplicitUsings>` is `enable` or
//! `true` (the last definition wins, the project's over the props file's), then the project's
//! own `<Using>` items. `<Using Include="A.B" />` is `global using A.B;`, with `Alias="X"`
//! `global using X = A.B;`, with `Static="true"` `global using static A.B;` (metadata may also
//! be child elements); `<Using Remove="A.B" />` drops every earlier item of that name. A `.cs`
//! file gets the usings of the nearest project folder above it (several project files in one
//! folder add up).
//!
//! The implicit usings are those of `Microsoft.NET.Sdk` (`System`, `System.Collections.Generic`,
//! `System.IO`, `System.Linq`, `System.Net.Http`, `System.Threading`,
//! `System.Threading.Tasks`), plus those of `Microsoft.NET.Sdk.Web` and
//! `Microsoft.NET.Sdk.Worker`: they are library namespaces, but projects declare their
//! `IServiceCollection` extensions in `Microsoft.Extensions.DependencyInjection`, which the Web
//! SDK makes visible everywhere. Other SDKs get the base set.
//!
//! `<ProjectReference>` items tell which projects' types a project sees (transitively), and
//! `internal` ones stay inside their project: extension methods are resolved only among those.
//!
//! For unresolved `using`s (`crate::lang::csharp`) it also reads each project's root namespace
//! (the last `<RootNamespace>`, else `<AssemblyName>`, else the project file's name, with
//! `$(MSBuildProjectName)` and `$(AssemblyName)` read), whether the project has Razor or XAML
//! files (whose namespaces follow their folders), the `csharp_namespace` of every `.proto`
//! file, and the files `<Compile Remove>` takes out of the build.
//!
//! The files are read as text, never evaluated: conditions are ignored (every item and property
//! counts), and an item whose name holds a property or item reference (`$(RootNamespace).X`) is
//! skipped. Of the nearest `Directory.Build.targets` at or above a project (which MSBuild imports
//! after the project file) only the `<ProjectReference>` items are read, conditions ignored too;
//! a reference through a wildcard folder (`..\Modules\**\Infrastructure\*.csproj`) is unknown,
//! as one through a property is. `Update` items are not read.

use std::collections::{BTreeMap, BTreeSet};

use super::paths::{ancestors, file_name, join, parent_dir};
use super::read::ConfigReader;

mod xml;

use xml::Tags;

/// The usings of the `.cs` files of one project folder.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct ProjectUsings {
    /// `global using A.B;` namespaces (or types: C# allows only namespaces here).
    pub namespaces: BTreeSet<String>,
    /// `global using X = A.B;`: alias → namespace or type.
    pub aliases: BTreeMap<String, String>,
    /// `global using static A.B.C;` types.
    pub statics: BTreeSet<String>,
}

/// The C# projects of a repository, by folder.
#[derive(Debug, Default)]
pub(crate) struct CSharpProjects {
    /// Project folder → the usings of the `.cs` files under it.
    projects: BTreeMap<String, ProjectUsings>,
    /// Project folder → the folders of the projects it references, directly or not
    /// (`<ProjectReference Include="..\Domain\Domain.csproj" />`).
    references: BTreeMap<String, BTreeSet<String>>,
    /// The project folders whose references are not all known (a `$(…)` path, in the project
    /// file or a props file it imports, or in a project it references): they see every
    /// project.
    open: BTreeSet<String>,
    /// The root namespace of each project (`<RootNamespace>`, else `<AssemblyName>`, else the
    /// project file's name; `$(MSBuildProjectName)` and `$(AssemblyName)` read), with whether
    /// code the build generates may declare namespaces under it (the project has Razor or XAML
    /// files, whose namespaces follow their folders or their own directives).
    roots: BTreeMap<String, bool>,
    /// The folders of the projects of each root namespace.
    root_folders: BTreeMap<String, BTreeSet<String>>,
    /// The `csharp_namespace` options of the project's `.proto` files: namespaces that code
    /// generated at build time declares.
    generated: BTreeSet<String>,
    /// The files `<Compile Remove="…" />` takes out of their project's build, as globs of
    /// project-relative paths.
    removed: Vec<globset::GlobMatcher>,
}

/// The implicit usings of every SDK-style C# project.
const BASE_USINGS: [&str; 7] = [
    "System",
    "System.Collections.Generic",
    "System.IO",
    "System.Linq",
    "System.Net.Http",
    "System.Threading",
    "System.Threading.Tasks",
];

/// The implicit usings `Microsoft.NET.Sdk.Worker` adds.
const WORKER_USINGS: [&str; 4] = [
    "Microsoft.Extensions.Configuration",
    "Microsoft.Extensions.DependencyInjection",
    "Microsoft.Extensions.Hosting",
    "Microsoft.Extensions.Logging",
];

/// The implicit usings `Microsoft.NET.Sdk.Web` adds.
const WEB_USINGS: [&str; 9] = [
    "System.Net.Http.Json",
    "Microsoft.AspNetCore.Builder",
    "Microsoft.AspNetCore.Hosting",
    "Microsoft.AspNetCore.Http",
    "Microsoft.AspNetCore.Routing",
    "Microsoft.Extensions.Configuration",
    "Microsoft.Extensions.DependencyInjection",
    "Microsoft.Extensions.Hosting",
    "Microsoft.Extensions.Logging",
];

/// The files from which the build generates C# code (Razor components and views, XAML pages,
/// gRPC services), whose namespaces no `.cs` file of the project declares.
const GENERATING: [&str; 4] = [".razor", ".cshtml", ".xaml", ".proto"];

/// Whether the C# build generates code from `path` (a Razor, XAML or `.proto` file).
fn generates_code(path: &str) -> bool {
    GENERATING.iter().any(|extension| path.ends_with(extension))
}

/// Whether [`CSharpProjects::discover`] reads `path`, or its presence: a project file, a
/// `Directory.Build.props`, or a file the build generates code from (which of those a project
/// has decides where an unknown namespace may still be declared).
pub fn is_project_input(path: &str) -> bool {
    path.ends_with(".csproj")
        || file_name(path) == BUILD_PROPS
        || file_name(path) == BUILD_TARGETS
        || generates_code(path)
}

/// The root namespace of the project file `project` from its props files (outermost first) and
/// its own file: the last `<RootNamespace>`, else the last `<AssemblyName>`, else the file's
/// name, with `$(MSBuildProjectName)` and `$(AssemblyName)` replaced; `None` when another
/// property remains.
fn root_namespace(props: &[MsBuildFile], own: &MsBuildFile, project: &str) -> Option<String> {
    let name = file_name(project).strip_suffix(".csproj")?;
    let last = |read: fn(&MsBuildFile) -> &Option<String>| {
        props
            .iter()
            .chain(std::iter::once(own))
            .filter_map(|file| read(file).clone())
            .next_back()
    };
    let assembly = last(|file| &file.assembly_name)
        .map(|assembly| assembly.replace("$(MSBuildProjectName)", name));
    let root = last(|file| &file.root_namespace)
        .or_else(|| assembly.clone())
        .unwrap_or_else(|| name.to_owned())
        .replace("$(MSBuildProjectName)", name)
        .replace("$(AssemblyName)", assembly.as_deref().unwrap_or(name));
    let valid = !root.is_empty()
        && root.split('.').all(|segment| {
            !segment.is_empty()
                && segment
                    .chars()
                    .all(|character| character.is_alphanumeric() || character == '_')
        });
    valid.then_some(root)
}

/// The `option csharp_namespace = "…";` of a `.proto` file.
fn proto_namespace(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("option")?.trim_start();
        let rest = rest.strip_prefix("csharp_namespace")?.trim_start();
        let value = rest.strip_prefix('=')?.trim().trim_end_matches(';').trim();
        let value = value.trim_matches('"');
        (!value.is_empty()).then(|| value.to_owned())
    })
}

/// The name of the props file MSBuild imports from the project folder or above.
const BUILD_PROPS: &str = "Directory.Build.props";

/// The name of the targets file MSBuild imports from the project folder or above, after the
/// project file.
const BUILD_TARGETS: &str = "Directory.Build.targets";

impl CSharpProjects {
    /// Reads every `.csproj` among `files` and the `Directory.Build.props` files above them.
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let mut projects = Self::default();
        let mut props_files: BTreeSet<&str> = BTreeSet::new();
        let mut targets_files: BTreeSet<&str> = BTreeSet::new();
        let mut project_files: Vec<&str> = Vec::new();
        let mut generating: Vec<&str> = Vec::new();
        for path in files {
            if file_name(path) == BUILD_PROPS {
                props_files.insert(path);
            } else if file_name(path) == BUILD_TARGETS {
                targets_files.insert(path);
            } else if path.ends_with(".csproj") {
                project_files.push(path);
            } else if generates_code(path) {
                generating.push(path);
            }
        }
        let mut props_cache: BTreeMap<&str, Option<MsBuildFile>> = BTreeMap::new();
        let mut targets_cache: BTreeMap<&str, Option<MsBuildFile>> = BTreeMap::new();
        let mut direct: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut roots: Vec<(String, String)> = Vec::new();
        for project in project_files.iter().copied() {
            let Some(text) = reader.read(project) else {
                continue;
            };
            let own = MsBuildFile::parse(&text);
            let folder = parent_dir(project);
            // The props files MSBuild imports, outermost first.
            let mut chain: Vec<MsBuildFile> = Vec::new();
            let mut search_from = Some(folder);
            while let Some(start) = search_from.take() {
                let Some(found) = std::iter::once(start)
                    .chain(ancestors(start))
                    .filter_map(|directory| join(directory, BUILD_PROPS))
                    .find_map(|candidate| props_files.get(candidate.as_str()).copied())
                else {
                    break;
                };
                let parsed = props_cache
                    .entry(found)
                    .or_insert_with(|| reader.read(found).map(|text| MsBuildFile::parse(&text)))
                    .clone();
                let Some(parsed) = parsed else {
                    break;
                };
                let found_folder = parent_dir(found);
                if parsed.imports_parent_props && !found_folder.is_empty() {
                    search_from = Some(parent_dir(found_folder));
                }
                chain.insert(0, parsed);
                if chain.len() > 32 {
                    break;
                }
            }
            // The nearest targets file, of which only the references are read.
            let targets = std::iter::once(folder)
                .chain(ancestors(folder))
                .filter_map(|directory| join(directory, BUILD_TARGETS))
                .find_map(|candidate| targets_files.get(candidate.as_str()).copied())
                .and_then(|found| {
                    targets_cache
                        .entry(found)
                        .or_insert_with(|| reader.read(found).map(|text| MsBuildFile::parse(&text)))
                        .clone()
                });
            // Items of an imported props or targets file are relative to the project's folder
            // too.
            let referenced = direct.entry(folder.to_owned()).or_default();
            for file in chain.iter().chain([&own]).chain(targets.as_ref()) {
                for reference in &file.project_references {
                    if let Some(path) = join(folder, &reference.replace('\\', "/")) {
                        referenced.insert(parent_dir(&path).to_owned());
                    }
                }
                if file.unknown_references {
                    projects.open.insert(folder.to_owned());
                }
            }
            if let Some(root) = root_namespace(&chain, &own, project) {
                roots.push((folder.to_owned(), root));
            }
            for file in chain.iter().chain(std::iter::once(&own)) {
                for pattern in &file.compile_removes {
                    let Some(path) = join(folder, &pattern.replace('\\', "/")) else {
                        continue;
                    };
                    if let Ok(glob) = globset::GlobBuilder::new(&path)
                        .literal_separator(true)
                        .build()
                    {
                        projects.removed.push(glob.compile_matcher());
                    }
                }
            }
            let usings = effective_usings(&chain, &own);
            let entry = projects.projects.entry(folder.to_owned()).or_default();
            entry.namespaces.extend(usings.namespaces);
            entry.aliases.extend(usings.aliases);
            entry.statics.extend(usings.statics);
        }
        for start in direct.keys() {
            let mut reached: BTreeSet<String> = BTreeSet::new();
            let mut pending: Vec<&String> = direct.get(start).into_iter().flatten().collect();
            while let Some(next) = pending.pop() {
                if reached.insert(next.clone()) {
                    pending.extend(direct.get(next).into_iter().flatten());
                }
            }
            if reached.iter().any(|folder| projects.open.contains(folder)) {
                projects.open.insert(start.clone());
            }
            projects.references.insert(start.clone(), reached);
        }
        projects.add_roots(reader, roots, generating);
        projects
    }

    /// Records the projects' root namespaces, and the namespaces and projects whose code the
    /// build generates from the `generating` files (`.razor`, `.cshtml`, `.xaml`, `.proto`).
    fn add_roots(
        &mut self,
        reader: &ConfigReader<'_>,
        roots: Vec<(String, String)>,
        generating: Vec<&str>,
    ) {
        let mut generates: BTreeSet<&str> = BTreeSet::new();
        for file in generating {
            if file.ends_with(".proto") {
                self.generated
                    .extend(reader.read(file).as_deref().and_then(proto_namespace));
            } else if let Some(project) = self.project_of(file) {
                generates.insert(project);
            }
        }
        let roots: Vec<(String, String, bool)> = roots
            .into_iter()
            .map(|(folder, root)| {
                let open = generates.contains(folder.as_str());
                (folder, root, open)
            })
            .collect();
        for (folder, root, open) in roots {
            self.root_folders
                .entry(root.clone())
                .or_default()
                .insert(folder);
            let known = self.roots.entry(root).or_insert(false);
            *known = *known || open;
        }
    }

    /// The folders where C#'s convention puts the files of `namespace`: below the folder of
    /// each project of the longest root namespace it lies under, its segments past the root
    /// (`API/Data/Migrations` for `API.Data.Migrations` in the project `API/` of root `API`).
    pub fn namespace_folders(&self, namespace: &str) -> Vec<String> {
        let Some((root, _)) = self.root_of(namespace) else {
            return Vec::new();
        };
        let below = namespace
            .strip_prefix(root)
            .unwrap_or_default()
            .trim_start_matches('.')
            .replace('.', "/");
        if below.is_empty() {
            return Vec::new();
        }
        self.root_folders
            .get(root)
            .into_iter()
            .flatten()
            .map(|folder| match folder.is_empty() {
                true => below.clone(),
                false => format!("{folder}/{below}"),
            })
            .collect()
    }

    /// The longest project root namespace that `namespace` is or lies under, with whether
    /// generated code may declare namespaces under it.
    pub fn root_of(&self, namespace: &str) -> Option<(&str, bool)> {
        self.roots
            .iter()
            .filter(|(root, _)| {
                namespace == root.as_str()
                    || namespace
                        .strip_prefix(root.as_str())
                        .is_some_and(|rest| rest.starts_with('.'))
            })
            .max_by_key(|(root, _)| root.len())
            .map(|(root, open)| (root.as_str(), *open))
    }

    /// Whether a `.proto` file's generated code declares `namespace`, or a namespace above or
    /// below it.
    pub fn generates(&self, namespace: &str) -> bool {
        let under = |long: &str, short: &str| {
            long == short
                || long
                    .strip_prefix(short)
                    .is_some_and(|rest| rest.starts_with('.'))
        };
        self.generated
            .iter()
            .any(|generated| under(generated, namespace) || under(namespace, generated))
    }

    /// Whether code of the project folder `from` can see the types of the project folder `to`:
    /// the same project, or one it references (directly or not); `internal` types only in the
    /// same project. Files outside every project, and projects whose references are not all
    /// known, see every project's public types.
    pub fn sees(&self, from: Option<&str>, to: Option<&str>, is_public: bool) -> bool {
        match (from, to) {
            (Some(from), Some(to)) if from != to => {
                is_public
                    && (self.open.contains(from)
                        || self
                            .references
                            .get(from)
                            .is_some_and(|reached| reached.contains(to)))
            }
            (from, to) => from == to || is_public,
        }
    }

    /// The usings of the project whose folder is nearest above `file`.
    pub fn usings_of(&self, file: &str) -> Option<&ProjectUsings> {
        self.project_of(file)
            .and_then(|folder| self.projects.get(folder))
    }

    /// Whether `<Compile Remove="…" />` takes `file` out of its project's build (a file kept in
    /// the repository but not compiled, whose usings may name what no longer exists).
    pub fn is_compile_removed(&self, file: &str) -> bool {
        self.removed.iter().any(|glob| glob.is_match(file))
    }

    /// The folder of the project nearest above `file`: the files of one project are compiled
    /// together, so they share `global using`s and `internal` types.
    pub fn project_of<'f>(&self, file: &'f str) -> Option<&'f str> {
        if self.projects.is_empty() {
            return None;
        }
        ancestors(file).find(|folder| self.projects.contains_key(*folder))
    }
}

/// The usings of a project from its props files (outermost first) and its own file.
fn effective_usings(props: &[MsBuildFile], project: &MsBuildFile) -> ProjectUsings {
    let implicit = props
        .iter()
        .chain(std::iter::once(project))
        .filter_map(|file| file.implicit_usings)
        .next_back()
        .unwrap_or(false);
    let mut items: Vec<UsingItem> = Vec::new();
    let mut apply = |operations: &[Operation]| {
        for operation in operations {
            match operation {
                Operation::Include(item) => items.push(item.clone()),
                Operation::Remove(name) => items.retain(|item| item.name != *name),
            }
        }
    };
    for file in props {
        apply(&file.operations);
    }
    if implicit {
        let sdks: Vec<&str> = props
            .iter()
            .chain(std::iter::once(project))
            .flat_map(|file| file.sdks.iter().map(String::as_str))
            .collect();
        let mut names: Vec<&str> = BASE_USINGS.to_vec();
        if sdks
            .iter()
            .any(|sdk| sdk.eq_ignore_ascii_case("Microsoft.NET.Sdk.Web"))
        {
            names.extend(WEB_USINGS);
        }
        if sdks
            .iter()
            .any(|sdk| sdk.eq_ignore_ascii_case("Microsoft.NET.Sdk.Worker"))
        {
            names.extend(WORKER_USINGS);
        }
        apply(
            &names
                .into_iter()
                .map(|name| Operation::Include(UsingItem::namespace(name)))
                .collect::<Vec<_>>(),
        );
    }
    apply(&project.operations);
    let mut usings = ProjectUsings::default();
    for item in items {
        match (item.alias, item.is_static) {
            (Some(alias), _) => {
                usings.aliases.insert(alias, item.name);
            }
            (None, true) => {
                usings.statics.insert(item.name);
            }
            (None, false) => {
                usings.namespaces.insert(item.name);
            }
        }
    }
    usings
}

/// One `<Using>` item.
#[derive(Debug, Clone, PartialEq, Eq)]
struct UsingItem {
    name: String,
    alias: Option<String>,
    is_static: bool,
}

impl UsingItem {
    fn namespace(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            alias: None,
            is_static: false,
        }
    }
}

/// A `<Using>` element, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Operation {
    Include(UsingItem),
    Remove(String),
}

/// What lintel reads from one MSBuild file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct MsBuildFile {
    /// The `<Using>` items, in order.
    operations: Vec<Operation>,
    /// The last `<ImplicitUsings>` value: `enable`/`true` or anything else.
    implicit_usings: Option<bool>,
    /// The SDKs named by `<Project Sdk>`, `<Sdk Name>` and `<Import Sdk>`, without versions.
    sdks: Vec<String>,
    /// Whether the file imports the props file above its folder (`GetPathOfFileAbove`).
    imports_parent_props: bool,
    /// The `Include` paths of its `<ProjectReference>` items, as written.
    project_references: Vec<String>,
    /// Whether a `<ProjectReference>` names its project through a property (`$(…)`), which
    /// lintel does not evaluate.
    unknown_references: bool,
    /// The last `<RootNamespace>` value.
    root_namespace: Option<String>,
    /// The last `<AssemblyName>` value.
    assembly_name: Option<String>,
    /// The `Remove` paths of its `<Compile>` items, as written (`$(…)` ones left out).
    compile_removes: Vec<String>,
}

impl MsBuildFile {
    fn parse(text: &str) -> Self {
        let mut file = Self {
            imports_parent_props: text.contains("GetPathOfFileAbove") && text.contains(BUILD_PROPS),
            ..Self::default()
        };
        // The `<Using>` element whose metadata child elements are being read: its attributes
        // and its metadata.
        let mut open_using: Option<(Attributes, Attributes)> = None;
        let mut tags = Tags::new(text);
        while let Some(tag) = tags.next() {
            let name = tag.name;
            if tag.is_closing {
                if name.eq_ignore_ascii_case("Using") {
                    if let Some((attributes, metadata)) = open_using.take() {
                        file.add_using(&attributes, &metadata);
                    }
                }
                continue;
            }
            if let Some((_, metadata)) = open_using.as_mut() {
                if !tag.is_self_closing {
                    metadata.push((name.to_owned(), tags.text_until_tag().trim().to_owned()));
                }
                continue;
            }
            if name.eq_ignore_ascii_case("Using") {
                if tag.is_self_closing {
                    file.add_using(&tag.attributes, &[]);
                } else {
                    open_using = Some((tag.attributes, Vec::new()));
                }
            } else if name.eq_ignore_ascii_case("ProjectReference") {
                if let Some(include) = attribute(&tag.attributes, "Include") {
                    for path in include.split(';').map(str::trim) {
                        // A property, or a wildcard folder (`..\Modules\**\Infrastructure\*.csproj`),
                        // may name any project; `..\Domain\*.csproj` names the one folder.
                        let folder = path
                            .rsplit_once(['\\', '/'])
                            .map_or("", |(folder, _)| folder);
                        if path.contains('$') || folder.contains('*') {
                            file.unknown_references = true;
                        } else if !path.is_empty() {
                            file.project_references.push(path.to_owned());
                        }
                    }
                }
            } else if name.eq_ignore_ascii_case("Compile") {
                if let Some(removed) = attribute(&tag.attributes, "Remove") {
                    file.compile_removes.extend(
                        removed
                            .split(';')
                            .map(str::trim)
                            .filter(|path| !path.is_empty() && !path.contains('$'))
                            .map(str::to_owned),
                    );
                }
            } else if (name.eq_ignore_ascii_case("RootNamespace")
                || name.eq_ignore_ascii_case("AssemblyName"))
                && !tag.is_self_closing
            {
                let value = tags.text_until_tag().trim().to_owned();
                if name.eq_ignore_ascii_case("RootNamespace") {
                    file.root_namespace = Some(value);
                } else {
                    file.assembly_name = Some(value);
                }
            } else if name.eq_ignore_ascii_case("ImplicitUsings") && !tag.is_self_closing {
                let value = tags.text_until_tag();
                let value = value.trim();
                file.implicit_usings = Some(
                    value.eq_ignore_ascii_case("enable") || value.eq_ignore_ascii_case("true"),
                );
            } else {
                let sdk_attribute = if name.eq_ignore_ascii_case("Sdk") {
                    "Name"
                } else {
                    "Sdk"
                };
                if name.eq_ignore_ascii_case("Project")
                    || name.eq_ignore_ascii_case("Import")
                    || name.eq_ignore_ascii_case("Sdk")
                {
                    if let Some(value) = attribute(&tag.attributes, sdk_attribute) {
                        file.sdks.extend(
                            value
                                .split(';')
                                .map(|sdk| sdk.split('/').next().unwrap_or(sdk).trim().to_owned())
                                .filter(|sdk| !sdk.is_empty()),
                        );
                    }
                }
            }
        }
        file
    }

    /// Adds the operations of one `<Using>` element: its attributes, else its metadata
    /// children.
    fn add_using(&mut self, attributes: &[(String, String)], metadata: &[(String, String)]) {
        let value = |name: &str| attribute(attributes, name).or_else(|| attribute(metadata, name));
        let is_static =
            value("Static").is_some_and(|flag| flag.trim().eq_ignore_ascii_case("true"));
        let alias = value("Alias")
            .map(str::trim)
            .filter(|alias| !alias.is_empty())
            .map(str::to_owned);
        for (key, removes) in [("Include", false), ("Remove", true)] {
            let Some(names) = attribute(attributes, key) else {
                continue;
            };
            for name in names
                .split(';')
                .map(str::trim)
                .filter(|name| !name.is_empty())
            {
                if name.contains(['$', '@', '%', '*']) {
                    continue;
                }
                let name = name.strip_prefix("global::").unwrap_or(name).to_owned();
                self.operations.push(if removes {
                    Operation::Remove(name)
                } else {
                    Operation::Include(UsingItem {
                        name,
                        alias: alias.clone(),
                        is_static,
                    })
                });
            }
        }
    }
}

/// `name="value"` pairs, or metadata elements with their text.
type Attributes = Vec<(String, String)>;

/// The value of an attribute (or metadata element), by case-insensitive name.
fn attribute<'a>(attributes: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attributes
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}

#[cfg(test)]
mod tests;
