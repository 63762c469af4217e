//! A TypeScript class that extends a client class is a client type for the other files too:
//! NestJS's `class PrismaService extends PrismaClient`, injected into a controller in another
//! file, is a definite database access at the injection, joined across files on every run (so a
//! cached controller follows an edited service). An injected project class that is no client,
//! and a type-only import, make none; through the real binary.

use super::{check_all, json_run, lintel, write_files};

const SPEC: &str = "node app : server\n\
                    node pg : postgres\n\
                    component Db { runs_on: app paths: \"src/db/**\" }\n\
                    component Api { runs_on: app paths: \"src/api/**\" }\n\
                    invariant Layers { deny flow Api -> pg }\n";

const SERVICE: &str = "import { PrismaClient } from '@prisma/client';\n\
\n\
export class PrismaService extends PrismaClient {}\n";

const CLOCK: &str = "export class Clock {\n  now() { return Date.now(); }\n}\n";

const USERS: &str = "import { PrismaService } from '../db/prisma.service';\n\
import { Clock } from '../db/clock';\n\
\n\
export class UsersController {\n\
  constructor(private prisma: PrismaService, private clock: Clock) {}\n\
  list() { return this.prisma.user.findMany(); }\n\
}\n";

const TYPES_ONLY: &str = "import type { PrismaService } from '../db/prisma.service';\n\
\n\
export class Reports {\n\
  constructor(private prisma: PrismaService) {}\n\
}\n";

#[test]
fn an_injected_client_class_is_a_database_access_of_the_injecting_file() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            ("package.json", "{ \"name\": \"shop\" }\n"),
            ("src/db/prisma.service.ts", SERVICE),
            ("src/db/clock.ts", CLOCK),
            ("src/api/users.controller.ts", USERS),
            ("src/api/reports.ts", TYPES_ONLY),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        crate::detections(&verdict),
        [(
            "deny flow Api -> pg",
            "src/api/users.controller.ts",
            5,
            "definite"
        )]
    );
    let message = verdict["violations"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("injection of `PrismaService`, a client class (it extends `PrismaClient` from `@prisma/client`)"),
        "{message}"
    );
    // With the cache: the controller's entry is read from it, the service edited into no client.
    let home = tempfile::tempdir().unwrap();
    let cached = |project: &std::path::Path| {
        json_run(
            lintel()
                .args(["check", "--all", "--json", "--project"])
                .arg(project)
                .env("XDG_CACHE_HOME", home.path()),
        )
    };
    let (code, _) = cached(project.path());
    assert_eq!(code, 1);
    write_files(
        project.path(),
        &[(
            "src/db/prisma.service.ts",
            "export class PrismaService {}\n",
        )],
    );
    let (code, verdict) = cached(project.path());
    assert_eq!(code, 0, "{verdict:#}");
    assert!(verdict["stats"]["files_cached"].as_u64().unwrap() >= 1);
}
