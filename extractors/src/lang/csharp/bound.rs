//! The uses of the libraries the spec binds with `clients` (see `node` and `resource` in
//! policies/LANGUAGE.md) in C#: a type of a bound namespace that a file constructs
//! (`new ConnectionFactory(…)`) or injects (a constructor parameter, field or property) is a
//! definite `accesses_technology` fact, a bare `using` of one a probable fact. A type the spec
//! binds by name is also used where it is extended or its static method called; a library the
//! catalogue knows, only at the catalogue's clients (`ConnectionMultiplexer.Connect(…)`).
//!
//! C# names a type by its simple name through every `using` at once, and lintel does not read
//! the libraries' assemblies, so a simple name is the bound namespace's only when nothing else
//! can supply it: the project declares no type of that name, it is no well-known .NET type, and
//! the file's `using`s of outside namespaces are, the common .NET ones aside (`COVERED_NAMESPACES`:
//! `System`, `System.Linq`, `Microsoft.Extensions.Logging`, …, whose names a file writes are
//! `WELL_KNOWN_TYPES`), all of that one library; a `using` of another .NET namespace
//! (`Microsoft.AspNetCore.Mvc`, `System.Net.Http.Headers`) could supply the name too. A name written out in full (`RabbitMQ.Client.ConnectionFactory`) or through a
//! `using` alias is the library's whatever else the file uses. The sites are kept only when the
//! spec binds a library, and judged once the type index is known.

use policies::facts::Fact;

use crate::facts::clients::{ClientImportAt, ClientMatcher, ClientSiteAt, ClientUse};
use crate::generic::GenericFacts;
use crate::resolve::context::Types;
use crate::resolve::deferred::{Anchor, Finishing};

use super::Using;

/// A site that may use a bound library: its anchor, use and name as written.
pub(super) type BoundSite = (Anchor, ClientUse, String);

/// Types of the .NET libraries that a file with a `using` of a bound namespace still names
/// through `System.*` (often implicitly) or `Microsoft.*`.
const WELL_KNOWN_TYPES: &[&str] = &[
    "Action",
    "ActionResult",
    "Activator",
    "ArgumentException",
    "ArgumentNullException",
    "ArgumentOutOfRangeException",
    "Array",
    "Assembly",
    "Attribute",
    "BackgroundService",
    "BinaryReader",
    "BinaryWriter",
    "BitConverter",
    "Buffer",
    "CancellationToken",
    "CancellationTokenSource",
    "ConcurrentDictionary",
    "ConcurrentQueue",
    "Console",
    "Controller",
    "ControllerBase",
    "Convert",
    "CultureInfo",
    "DateTime",
    "DateTimeOffset",
    "Debug",
    "Dictionary",
    "Directory",
    "DirectoryInfo",
    "Encoding",
    "Enum",
    "Enumerable",
    "Environment",
    "EventArgs",
    "EventHandler",
    "Exception",
    "File",
    "FileInfo",
    "FileStream",
    "FormatException",
    "Func",
    "GC",
    "Guid",
    "HashCode",
    "HashSet",
    "HttpClient",
    "HttpContent",
    "HttpContext",
    "HttpMethod",
    "HttpRequestException",
    "HttpRequestMessage",
    "HttpResponseMessage",
    "IActionResult",
    "IApplicationBuilder",
    "IAsyncDisposable",
    "IAsyncEnumerable",
    "ICollection",
    "IComparable",
    "IComparer",
    "IConfiguration",
    "IDictionary",
    "IDisposable",
    "IEnumerable",
    "IEnumerator",
    "IEqualityComparer",
    "IEquatable",
    "IHostEnvironment",
    "IHostedService",
    "IHttpClientFactory",
    "IHttpContextAccessor",
    "IList",
    "ILogger",
    "ILoggerFactory",
    "IMemoryCache",
    "IOException",
    "IOptions",
    "IOptionsMonitor",
    "IOptionsSnapshot",
    "IProgress",
    "IReadOnlyCollection",
    "IReadOnlyDictionary",
    "IReadOnlyList",
    "IResult",
    "IServiceCollection",
    "IServiceProvider",
    "IServiceScope",
    "IServiceScopeFactory",
    "ISet",
    "IWebHostEnvironment",
    "Interlocked",
    "InvalidOperationException",
    "KeyNotFoundException",
    "KeyValuePair",
    "Lazy",
    "LinkedList",
    "List",
    "LogLevel",
    "ManualResetEventSlim",
    "Math",
    "Memory",
    "MemoryCache",
    "MemoryCacheEntryOptions",
    "MemoryStream",
    "Monitor",
    "Mutex",
    "NotImplementedException",
    "NotSupportedException",
    "Nullable",
    "NumberStyles",
    "Object",
    "OperationCanceledException",
    "Parallel",
    "Path",
    "Process",
    "ProcessStartInfo",
    "Progress",
    "Queue",
    "Random",
    "ReadOnlyMemory",
    "ReadOnlySpan",
    "Regex",
    "SemaphoreSlim",
    "ServiceCollection",
    "SortedDictionary",
    "SortedSet",
    "Span",
    "Stack",
    "Stopwatch",
    "Stream",
    "StreamReader",
    "StreamWriter",
    "StringBuilder",
    "StringComparer",
    "StringContent",
    "StringReader",
    "StringWriter",
    "Task",
    "TextReader",
    "TextWriter",
    "TimeSpan",
    "TimeoutException",
    "Timer",
    "Trace",
    "Tuple",
    "Type",
    "Uri",
    "UriBuilder",
    "ValueTask",
    "Version",
];

/// The .NET namespaces whose names a file commonly writes are in `WELL_KNOWN_TYPES` (the SDK's
/// implicit usings, logging, options, configuration, hosting, dependency injection): a `using` of
/// one leaves a simple name to the bound namespace. Any other (`System.Net.Http.Headers`,
/// `System.Collections.Frozen`, `Microsoft.AspNetCore.Mvc`) could supply it.
const COVERED_NAMESPACES: &[&str] = &[
    "Microsoft.Extensions.Caching.Memory",
    "Microsoft.Extensions.Configuration",
    "Microsoft.Extensions.DependencyInjection",
    "Microsoft.Extensions.Hosting",
    "Microsoft.Extensions.Logging",
    "Microsoft.Extensions.Options",
    "System",
    "System.Collections.Concurrent",
    "System.Collections.Generic",
    "System.Diagnostics",
    "System.Diagnostics.CodeAnalysis",
    "System.Globalization",
    "System.IO",
    "System.Linq",
    "System.Net.Http",
    "System.Runtime.CompilerServices",
    "System.Text",
    "System.Threading",
    "System.Threading.Tasks",
];

/// The facts of a file's bound sites. A library the catalogue knows (`StackExchange.Redis`,
/// `RabbitMQ.Client`) is used at its catalogue clients only, read as the catalogue reads them (by
/// simple name under a `using` of the library, beside other outside namespaces too); a
/// `new RedisKey(…)` or `new BasicProperties()` is no use, and the file's use stays probable at its
/// `using`. A type the spec binds by name is used wherever the file uses it; any other bound
/// namespace where the file constructs or injects one of its types: a class extending one of its
/// types (a request or event model) or a static helper of it (`Utils.ToHex(…)`) is no use.
pub(super) fn facts(
    finishing: &Finishing<'_>,
    index: Types<'_>,
    usings: &[Using<Anchor>],
    sites: Vec<BoundSite>,
    facts: &mut Vec<Fact>,
) {
    let factory = &finishing.factory;
    let generic = factory.generic();
    let matcher = ClientMatcher {
        rules: crate::catalogue::catalogue().libraries("csharp"),
        separator: ".",
    };
    let is_project = |namespace: &str| index.owns_package(namespace);
    // The bound namespaces the file's plain `using`s bring in, and whether any other outside
    // namespace (System and Microsoft aside) could supply a simple name.
    let plain = usings
        .iter()
        .filter(|using| using.alias.is_none() && !using.is_static && !is_project(&using.path));
    let mut bound_namespaces: Vec<(&str, &str)> = Vec::new();
    let mut has_other_outside = false;
    for using in plain {
        // A `using` of a namespace one of whose types is bound (`clients:
        // "NBXplorer.ExplorerClient"`) brings that type's simple name in.
        match generic
            .bound_client(&using.path)
            .or_else(|| generic.bound_type_of(&using.path))
        {
            Some(library) => bound_namespaces.push((using.path.as_str(), library)),
            None => has_other_outside |= !COVERED_NAMESPACES.contains(&using.path.as_str()),
        }
    }
    let one_library = bound_namespaces
        .split_first()
        .filter(|((_, library), rest)| {
            !has_other_outside && rest.iter().all(|(_, other)| other == library)
        })
        .map(|((namespace, _), _)| *namespace);
    let reading = Reading {
        usings,
        index,
        generic,
        matcher: &matcher,
        one_library,
    };
    let client_sites: Vec<ClientSiteAt<Anchor>> = sites
        .into_iter()
        .filter_map(|(anchor, use_kind, name)| {
            let path = reading.path(&name, use_kind)?;
            let library = generic.bound_client(&path)?;
            let type_path = match use_kind {
                ClientUse::Call => path.rsplit_once('.').map_or(path.as_str(), |(t, _)| t),
                _ => path.as_str(),
            };
            let is_use = type_path == library
                || matcher.knows_bound(factory, library)
                || matches!(use_kind, ClientUse::Construct | ClientUse::Inject);
            is_use.then_some(ClientSiteAt {
                node: anchor,
                use_kind,
                path,
                is_qualified: true,
                argument: None,
                options: Vec::new(),
            })
        })
        .collect();
    let imports: Vec<ClientImportAt<Anchor>> = usings
        .iter()
        .filter(|using| !using.is_static)
        .map(|using| using.client_import(is_project(&using.path)))
        .collect();
    let scope_of = |anchor: Anchor| finishing.scope(anchor);
    // The catalogue judges the sites and imports of the bound libraries it knows.
    facts.extend(matcher.bound_facts(factory, &client_sites, &imports, &scope_of));
}

/// How a file's names are read for the bound libraries.
struct Reading<'r> {
    usings: &'r [Using<Anchor>],
    index: Types<'r>,
    generic: &'r GenericFacts,
    matcher: &'r ClientMatcher<'r>,
    /// The one bound namespace that can supply a simple name, if any.
    one_library: Option<&'r str>,
}

impl Reading<'_> {
    /// The qualified path of a name as written, used as `use_kind`: itself when written out in
    /// full into a bound namespace, through a `using` alias, a type the spec binds by name or a
    /// client the catalogue knows under a `using` of its bound library, or under the one bound
    /// namespace that can supply a simple name (`one_library`).
    fn path(&self, name: &str, use_kind: ClientUse) -> Option<String> {
        let Self {
            usings,
            index,
            generic,
            matcher,
            one_library,
        } = self;
        let name = name.strip_prefix("global::").unwrap_or(name);
        if generic.bound_client(name).is_some() {
            return Some(name.to_owned());
        }
        let (head, rest) = name.split_once('.').unwrap_or((name, ""));
        let with_rest = |base: &str| {
            if rest.is_empty() {
                base.to_owned()
            } else {
                format!("{base}.{rest}")
            }
        };
        if let Some(alias) = usings
            .iter()
            .find(|using| !using.is_static && using.alias.as_deref() == Some(head))
        {
            return Some(with_rest(&alias.path));
        }
        // A variable (`channel.BasicPublish(…)`), a call of the class's own method
        // (`GetResults(x).ConfigureAwait(…)`), a project type or namespace (`Emby.Naming.…`) or a
        // .NET type is no bound library's.
        if !head.starts_with(|first: char| first.is_ascii_uppercase())
            || !head.chars().all(|c| c.is_alphanumeric() || c == '_')
            || !index.packages_declaring(head).is_empty()
            || index.declares_or_encloses(head)
            || WELL_KNOWN_TYPES.contains(&head)
        {
            return None;
        }
        let mut under_usings = usings
            .iter()
            .filter(|using| using.alias.is_none() && !using.is_static)
            .map(|using| format!("{}.{head}", using.path));
        // A type the spec binds by name (`clients: "NBXplorer.ExplorerClient"`) is known, as the
        // catalogue's clients are (`ConnectionMultiplexer.Connect` under `using
        // StackExchange.Redis;`): its simple name under a `using` of its namespace is it,
        // whatever else the file uses.
        let known = under_usings.find(|path| {
            generic.bound_client(path) == Some(path.as_str())
                || (generic.bound_client(path).is_some()
                    && matcher
                        .first_rule(use_kind, &with_rest(path), true)
                        .is_some())
        });
        if let Some(path) = known {
            return Some(with_rest(&path));
        }
        one_library.map(|namespace| with_rest(&format!("{namespace}.{head}")))
    }
}
