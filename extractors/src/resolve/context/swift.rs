//! Swift modules: SwiftPM targets declared in `Package.swift` (`.target(name: "X", path: …)`,
//! with the default folder `Sources/X`, or `Tests/X` for a test target), else a folder named like
//! the module, outside every target's folder (a folder inside a target is part of it) and never
//! for one of Apple's modules (`import CoreData` is the framework, whatever folders the project
//! names so). A module stands for its first `.swift` file in bytewise order of the path.

use std::collections::BTreeMap;

use tree_sitter::{Node, Tree};

use super::paths::{file_name, is_within, join, parent_dir};
use super::read::ConfigReader;
use super::Resolution;
use crate::syntax::{self, named_children, ChildField};

/// The modules of Apple's SDKs and of Swift's toolchain, which a project imports as frameworks.
pub(crate) const APPLE_MODULES: &[&str] = &[
    "ARKit",
    "AVFoundation",
    "AVKit",
    "Accelerate",
    "ActivityKit",
    "AppIntents",
    "AppKit",
    "AuthenticationServices",
    "BackgroundTasks",
    "Charts",
    "CloudKit",
    "Combine",
    "Contacts",
    "ContactsUI",
    "CoreBluetooth",
    "CoreData",
    "CoreFoundation",
    "CoreGraphics",
    "CoreHaptics",
    "CoreImage",
    "CoreLocation",
    "CoreML",
    "CoreMedia",
    "CoreMotion",
    "CoreServices",
    "CoreSpotlight",
    "CoreTelephony",
    "CoreText",
    "CoreVideo",
    "CryptoKit",
    "Darwin",
    "Dispatch",
    "EventKit",
    "Foundation",
    "FoundationNetworking",
    "GameKit",
    "Glibc",
    "HealthKit",
    "ImageIO",
    "Intents",
    "IntentsUI",
    "LinkPresentation",
    "LocalAuthentication",
    "MapKit",
    "MessageUI",
    "Metal",
    "MetalKit",
    "MobileCoreServices",
    "NaturalLanguage",
    "Network",
    "OSLog",
    "Observation",
    "PDFKit",
    "PassKit",
    "Photos",
    "PhotosUI",
    "QuartzCore",
    "QuickLook",
    "RealityKit",
    "RegexBuilder",
    "SafariServices",
    "SceneKit",
    "Security",
    "Social",
    "Speech",
    "SpriteKit",
    "StoreKit",
    "Swift",
    "SwiftData",
    "SwiftUI",
    "Testing",
    "UIKit",
    "UniformTypeIdentifiers",
    "UserNotifications",
    "Vision",
    "VisionKit",
    "WatchConnectivity",
    "WatchKit",
    "WebKit",
    "WidgetKit",
    "XCTest",
    "os",
];

/// The Swift modules of the project.
#[derive(Debug, Default)]
pub(crate) struct SwiftModules {
    /// Module name → its first file and its folder, from `Package.swift` targets.
    targets: BTreeMap<String, (String, String)>,
    /// Folder name → the first `.swift` file under the bytewise-first folder of that name, and
    /// that folder.
    folders: BTreeMap<String, (String, String)>,
}

impl SwiftModules {
    /// Reads every `Package.swift` among `files` and indexes the `.swift` folders.
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let mut modules = Self::default();
        let mut swift_files: Vec<&str> = Vec::new();
        let mut manifests = Vec::new();
        for path in files {
            if file_name(path) == "Package.swift" {
                manifests.push(path);
            } else if path.ends_with(".swift") {
                swift_files.push(path);
            }
        }
        swift_files.sort_unstable();
        let first_under = |folder: &str| {
            swift_files
                .iter()
                .find(|file| is_within(file, folder))
                .map(|file| (*file).to_owned())
        };
        for manifest in manifests {
            let Some(text) = reader.read(manifest) else {
                continue;
            };
            let Some(tree) = syntax::parse(|| tree_sitter_swift::LANGUAGE.into(), &text) else {
                continue;
            };
            let package_folder = parent_dir(manifest);
            for target in package_targets(&tree, &text) {
                let default_folder = if target.is_test {
                    format!("Tests/{}", target.name)
                } else {
                    format!("Sources/{}", target.name)
                };
                let folder = join(
                    package_folder,
                    target.path.as_deref().unwrap_or(&default_folder),
                );
                if let Some(folder) = folder {
                    if let Some(first) = first_under(&folder) {
                        modules
                            .targets
                            .entry(target.name)
                            .or_insert((first, folder));
                    }
                }
            }
        }
        // A folder inside a target is part of it, and a folder named like one of Apple's modules
        // is no module (mastodon-ios has `MastodonCore/Service/API/CoreData` and
        // `MastodonUI/SwiftUI`: every `import CoreData` had become an import of MastodonCore).
        let target_folders: Vec<&str> = modules
            .targets
            .values()
            .map(|(_, folder)| folder.as_str())
            .collect();
        let mut folders: BTreeMap<String, (String, String)> = BTreeMap::new();
        for file in &swift_files {
            let mut folder = parent_dir(file);
            while !folder.is_empty() {
                let name = file_name(folder);
                let inside_target = target_folders
                    .iter()
                    .any(|target| folder != *target && is_within(folder, target));
                if !inside_target && !APPLE_MODULES.contains(&name) {
                    folders
                        .entry(name.to_owned())
                        .or_insert_with(|| ((*file).to_owned(), folder.to_owned()));
                }
                folder = parent_dir(folder);
            }
        }
        modules.folders = folders;
        modules
    }

    /// Resolves `import Module`.
    pub fn resolve(&self, module: &str) -> Resolution {
        self.targets
            .get(module)
            .or_else(|| self.folders.get(module))
            .map_or_else(
                || Resolution::External {
                    package: module.to_owned(),
                },
                |(file, _)| Resolution::File(file.clone()),
            )
    }

    /// The folder of a project module: every `.swift` file below it belongs to the module.
    pub fn folder(&self, module: &str) -> Option<&str> {
        self.targets
            .get(module)
            .or_else(|| self.folders.get(module))
            .map(|(_, folder)| folder.as_str())
    }
}

/// One SwiftPM target of a `Package.swift`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PackageTarget {
    /// The target (module) name.
    pub name: String,
    /// Its `path:` argument, relative to the package folder.
    pub path: Option<String>,
    /// Whether it is a `.testTarget` (default folder `Tests/<name>`).
    pub is_test: bool,
}

/// The `.target(name:path:)`, `.executableTarget(…)` and `.testTarget(…)` calls of a
/// `Package.swift`, read from its syntax tree (never executed).
fn package_targets(tree: &Tree, source: &str) -> Vec<PackageTarget> {
    let mut targets = Vec::new();
    for node in syntax::descendants(tree.root_node()) {
        if node.kind() == "call_expression" {
            if let Some(target) = read_target(node, source) {
                targets.push(target);
            }
        }
    }
    targets
}

fn read_target(call: Node<'_>, source: &str) -> Option<PackageTarget> {
    let children = named_children(call);
    let callee = children.first()?;
    if callee.kind() != "prefix_expression" {
        return None;
    }
    let function = syntax::text(callee.child_field("target")?, source);
    let is_test = match function {
        "target" | "executableTarget" | "macro" | "plugin" => false,
        "testTarget" => true,
        _ => return None,
    };
    let arguments = children
        .iter()
        .find(|child| child.kind() == "call_suffix")
        .and_then(|suffix| named_children(*suffix).into_iter().next())?;
    let mut name = None;
    let mut path = None;
    for argument in named_children(arguments) {
        let label = argument
            .child_field("name")
            .map(|label| syntax::text(label, source));
        let value = argument
            .child_field("value")
            .filter(|value| value.kind() == "line_string_literal")
            .map(|value| {
                named_children(value)
                    .into_iter()
                    .map(|part| syntax::text(part, source))
                    .collect::<String>()
            });
        match label {
            Some("name") => name = value,
            Some("path") => path = value,
            _ => {}
        }
    }
    Some(PackageTarget {
        name: name?,
        path,
        is_test,
    })
}
