//! The type indexes as the extractors read them ([`Types`]): each lookup is recorded with its
//! answer for the per-file cache ([`crate::probes::Probe::Types`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::resolve::context::probes::{record, Probe};
use crate::resolve::context::type_index::{ExtensionMethod, IndexOf, TypeIndex, TypeQuestion};

/// A type index as the extractors read it: each lookup is recorded as a question with its
/// answer ([`crate::probes::Probe::Types`]), so a cached file's facts are reused exactly when
/// the types it looked up are unchanged, whatever else the project declares.
#[derive(Clone, Copy)]
pub(crate) struct Types<'a> {
    index: &'a TypeIndex,
    of: IndexOf,
}

impl<'a> Types<'a> {
    pub(crate) fn new(index: &'a TypeIndex, of: IndexOf) -> Self {
        Self { index, of }
    }

    fn record(self, question: impl FnOnce() -> TypeQuestion) {
        record(|| {
            let question = question();
            let answer = self.index.answer(&question);
            Probe::Types {
                index: self.of,
                question,
                answer,
            }
        });
    }

    /// [`TypeIndex::package`], recorded.
    pub fn package(self, package: &str) -> Option<&'a BTreeMap<String, BTreeSet<String>>> {
        self.record(|| TypeQuestion::Package(package.to_owned()));
        self.index.package(package)
    }

    /// [`TypeIndex::declares_package`], recorded: a file that only needs to know whether a
    /// package is declared does not depend on which types it holds.
    pub fn declares_package(self, package: &str) -> bool {
        self.record(|| TypeQuestion::Declares(package.to_owned()));
        self.index.declares_package(package)
    }

    /// [`TypeIndex::files_of`], recorded.
    pub fn files_of(self, package: &str, name: &str) -> Option<&'a BTreeSet<String>> {
        self.record(|| TypeQuestion::Name(name.to_owned()));
        self.index.files_of(package, name)
    }

    /// [`TypeIndex::owns_package`], recorded.
    pub fn owns_package(self, package: &str) -> bool {
        self.record(|| TypeQuestion::Owns(package.to_owned()));
        self.index.owns_package(package)
    }

    /// [`TypeIndex::owns_package_itself`], recorded.
    pub fn owns_package_itself(self, package: &str) -> bool {
        self.record(|| TypeQuestion::OwnsItself(package.to_owned()));
        self.index.owns_package_itself(package)
    }

    /// [`TypeIndex::declares_name`], recorded.
    pub fn declares_name(self, name: &str) -> bool {
        self.record(|| TypeQuestion::Name(name.to_owned()));
        self.index.declares_name(name)
    }

    /// [`TypeIndex::packages_declaring`], recorded.
    pub fn packages_declaring(self, name: &str) -> &'a [String] {
        self.record(|| TypeQuestion::Name(name.to_owned()));
        self.index.packages_declaring(name)
    }

    /// [`TypeIndex::extension_methods`], recorded.
    pub fn extension_methods(
        self,
        name: &str,
    ) -> impl Iterator<Item = (&'a ExtensionMethod, &'a str)> + 'a {
        self.record(|| TypeQuestion::ExtensionMethods(name.to_owned()));
        self.index.extension_methods(name)
    }

    /// [`TypeIndex::declares_or_encloses`], recorded.
    pub fn declares_or_encloses(self, package: &str) -> bool {
        self.record(|| TypeQuestion::DeclaresOrEncloses(package.to_owned()));
        self.index.declares_or_encloses(package)
    }

    /// [`TypeIndex::is_mapper_package`], recorded.
    pub fn is_mapper_package(self, package: &str) -> bool {
        self.record(|| TypeQuestion::IsMapperPackage(package.to_owned()));
        self.index.is_mapper_package(package)
    }

    /// [`TypeIndex::string_constant`], recorded.
    pub fn string_constant(self, written: &str) -> Option<&'a str> {
        self.record(|| TypeQuestion::StringConstant(written.to_owned()));
        self.index.string_constant(written)
    }
}
