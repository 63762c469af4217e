//! The client packages of `language.md` §3.5: which technology each one reaches, and which
//! constructions and calls of its exports count as using a client (a definite fact).
//!
//! Export paths are read through import bindings (`bindings`): `Pool` matches `new Pool()` after
//! `import { Pool } from 'pg'` and `new pg.Pool()` after `import pg from 'pg'`; `default` is the
//! module object itself (`axios(…)`, `new Redis()`).

/// How a client package's technology category is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Technology {
    /// Always this category.
    Category(&'static str),
    /// The provider of the applicable `schema.prisma`, else `relational_db`.
    Prisma,
    /// The dialect of the drizzle module used (or the applicable config), else `relational_db`.
    Drizzle,
}

/// One client package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ClientPackage {
    /// The npm package name.
    pub package: &'static str,
    /// Its technology.
    pub technology: Technology,
    /// Export paths whose `new` constructs a client.
    pub constructs: &'static [&'static str],
    /// Export paths whose call creates or uses a client.
    pub calls: &'static [&'static str],
}

const HTTP_VERBS: [&str; 7] = ["get", "post", "put", "patch", "delete", "head", "options"];

/// The package table, one entry per client package of `language.md` §3.5.
pub(super) const CLIENT_PACKAGES: [ClientPackage; 15] = [
    ClientPackage {
        package: "pg",
        technology: Technology::Category("postgres"),
        constructs: &["Pool", "Client", "native.Pool", "native.Client"],
        calls: &[],
    },
    ClientPackage {
        package: "mysql2",
        technology: Technology::Category("mysql"),
        constructs: &[],
        calls: &["createConnection", "createPool", "createPoolCluster"],
    },
    ClientPackage {
        package: "@prisma/client",
        technology: Technology::Prisma,
        constructs: &["PrismaClient"],
        calls: &[],
    },
    ClientPackage {
        package: "drizzle-orm",
        technology: Technology::Drizzle,
        constructs: &[],
        calls: &["drizzle"],
    },
    ClientPackage {
        package: "mongoose",
        technology: Technology::Category("mongodb"),
        constructs: &[],
        calls: &["connect", "createConnection", "model"],
    },
    ClientPackage {
        package: "mongodb",
        technology: Technology::Category("mongodb"),
        constructs: &["MongoClient"],
        calls: &["MongoClient.connect"],
    },
    ClientPackage {
        package: "redis",
        technology: Technology::Category("redis"),
        constructs: &[],
        calls: &["createClient", "createCluster"],
    },
    ClientPackage {
        package: "ioredis",
        technology: Technology::Category("redis"),
        constructs: &["default", "Redis", "Cluster", "Redis.Cluster"],
        calls: &[],
    },
    ClientPackage {
        package: "kafkajs",
        technology: Technology::Category("message_queue"),
        constructs: &["Kafka"],
        calls: &[],
    },
    ClientPackage {
        package: "amqplib",
        technology: Technology::Category("message_queue"),
        constructs: &[],
        calls: &["connect"],
    },
    ClientPackage {
        package: "@aws-sdk/client-s3",
        technology: Technology::Category("object_store"),
        constructs: &["S3Client", "S3"],
        calls: &[],
    },
    ClientPackage {
        package: "axios",
        technology: Technology::Category("external_api"),
        constructs: &[],
        calls: &[
            "default", "request", "create", "get", "post", "put", "patch", "delete", "head",
            "options",
        ],
    },
    ClientPackage {
        package: "got",
        technology: Technology::Category("external_api"),
        constructs: &[],
        calls: &[
            "default", "extend", "get", "post", "put", "patch", "delete", "head",
        ],
    },
    ClientPackage {
        package: "node-fetch",
        technology: Technology::Category("external_api"),
        constructs: &[],
        calls: &["default"],
    },
    ClientPackage {
        package: "undici",
        technology: Technology::Category("external_api"),
        constructs: &["Client", "Pool", "Agent"],
        calls: &["request", "fetch", "stream"],
    },
];

/// The entry of a client package.
pub(super) fn client_package(package: &str) -> Option<&'static ClientPackage> {
    CLIENT_PACKAGES
        .iter()
        .find(|client| client.package == package)
}

/// Whether `name` is an HTTP verb method (`get`, `post`, …).
pub(super) fn is_http_verb(name: &str) -> bool {
    HTTP_VERBS.contains(&name)
}

/// The category of a drizzle module (`drizzle-orm/node-postgres` → `postgres`), when it has one.
pub(super) fn drizzle_dialect(specifier: &str) -> Option<&'static str> {
    let module = specifier.strip_prefix("drizzle-orm/")?.split('/').next()?;
    let category = match module {
        "pg-core" | "node-postgres" | "postgres-js" | "neon-http" | "neon-serverless"
        | "vercel-postgres" | "pglite" | "xata-http" | "pg-proxy" | "aws-data-api" | "supabase" => {
            "postgres"
        }
        "mysql-core" | "mysql2" | "planetscale-serverless" | "tidb-serverless" | "mysql-proxy" => {
            "mysql"
        }
        "sqlite-core" | "better-sqlite3" | "libsql" | "bun-sqlite" | "d1" | "expo-sqlite"
        | "op-sqlite" | "sql-js" | "sqlite-proxy" | "durable-sqlite" => "sqlite",
        _ => return None,
    };
    Some(category)
}
