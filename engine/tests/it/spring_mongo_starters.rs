//! A Spring Boot module whose build has the MongoDB starter and no relational one talks to
//! MongoDB even when no `spring.data.mongodb.*` key names it (the driver's defaults): its Spring
//! Data store-neutral repositories are `mongodb`, through the real binary, for a Maven and a
//! Gradle (Kotlin DSL) module. A module with both the MongoDB and the JPA starter claims no
//! MongoDB.

use super::{graph_document, json_run, lintel, write_files};

const NOTE_REPOSITORY: &str = "package com.notes;\n\nimport org.springframework.data.repository.CrudRepository;\n\npublic interface NoteRepository extends CrudRepository<Note, String> {}\n";
const EVENT_REPOSITORY: &str = "package com.events\n\nimport org.springframework.data.repository.reactive.ReactiveCrudRepository\n\nclass Event(val id: String)\n\ninterface EventRepository : ReactiveCrudRepository<Event, String>\n";
const ITEM_REPOSITORY: &str = "package com.catalog;\n\nimport org.springframework.data.repository.CrudRepository;\n\npublic interface ItemRepository extends CrudRepository<Item, String> {}\n";

fn starter(artifact: &str) -> String {
    format!("    <dependency>\n      <groupId>org.springframework.boot</groupId>\n      <artifactId>{artifact}</artifactId>\n    </dependency>\n")
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let notes_pom = format!(
        "<project>\n  <dependencies>\n{}  </dependencies>\n</project>\n",
        starter("spring-boot-starter-data-mongodb")
    );
    let catalog_pom = format!(
        "<project>\n  <dependencies>\n{}{}  </dependencies>\n</project>\n",
        starter("spring-boot-starter-data-mongodb"),
        starter("spring-boot-starter-data-jpa")
    );
    write_files(
        dir.path(),
        &[
            (
                "architecture.ag",
                "node app : server\n\
                 node docs : mongodb\n\
                 node sql : postgres\n\
                 component Notes { runs_on: app paths: \"notes/**\" }\n\
                 component Events { runs_on: app paths: \"events/**\" }\n\
                 component Catalog { runs_on: app paths: \"catalog/**\" }\n\
                 invariant Documents { deny flow Notes -> docs  deny flow Events -> docs }\n\
                 invariant NoFalseClaims { deny flow Notes -> sql  deny flow Events -> sql  deny flow Catalog -> docs }\n",
            ),
            ("notes/pom.xml", &notes_pom),
            (
                "notes/src/main/java/com/notes/Note.java",
                "package com.notes;\n\npublic class Note { String id; }\n",
            ),
            (
                "notes/src/main/java/com/notes/NoteRepository.java",
                NOTE_REPOSITORY,
            ),
            (
                "events/build.gradle.kts",
                "dependencies {\n    implementation(\"org.springframework.boot:spring-boot-starter-data-mongodb-reactive\")\n    testImplementation(\"org.springframework.boot:spring-boot-starter-data-jpa\")\n}\n",
            ),
            (
                "events/src/main/kotlin/com/events/EventRepository.kt",
                EVENT_REPOSITORY,
            ),
            ("catalog/pom.xml", &catalog_pom),
            (
                "catalog/src/main/java/com/catalog/Item.java",
                "package com.catalog;\n\npublic class Item { String id; }\n",
            ),
            (
                "catalog/src/main/java/com/catalog/ItemRepository.java",
                ITEM_REPOSITORY,
            ),
        ],
    );
    dir
}

#[test]
fn spring_repositories_of_a_module_with_only_the_mongodb_starter_access_mongodb() {
    let project = project();
    let graph = graph_document(project.path());
    let mut stores: Vec<(&str, &str)> = graph["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|fact| fact["kind"] == "accesses_technology")
        .map(|fact| {
            (
                fact["evidence"]["file"].as_str().unwrap(),
                fact["technology"].as_str().unwrap(),
            )
        })
        .collect();
    stores.sort_unstable();
    assert_eq!(
        stores,
        [
            (
                "catalog/src/main/java/com/catalog/ItemRepository.java",
                "relational_db"
            ),
            (
                "events/src/main/kotlin/com/events/EventRepository.kt",
                "mongodb"
            ),
            (
                "notes/src/main/java/com/notes/NoteRepository.java",
                "mongodb"
            ),
        ]
    );
    // The check: each MongoDB-only module flows to the MongoDB node, and no rule about a store a
    // module does not use fires.
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--no-cache", "--project"])
            .arg(project.path()),
    );
    assert_eq!(code, 1, "{verdict:#}");
    let mut found = crate::rules_and_files(&verdict);
    found.sort_unstable();
    assert_eq!(
        found,
        [
            (
                "deny flow Events -> docs",
                "events/src/main/kotlin/com/events/EventRepository.kt"
            ),
            (
                "deny flow Notes -> docs",
                "notes/src/main/java/com/notes/NoteRepository.java"
            ),
        ]
    );
}
