//! The closed vocabularies of the language (trust levels, roles, DI lifetimes, HTTP methods, …), and the "did you mean" suggestion of diagnostics
//! (smallest edit distance, at most 2, ties broken lexicographically).

/// Node types (78).
pub const NODE_TYPES: [&str; 78] = [
    // compute
    "server",
    "container",
    "k8s_pod",
    "lambda",
    "edge_function",
    "edge_mobile",
    "edge_desktop",
    "edge_embedded",
    "edge_wearable",
    "gpu_node",
    // network
    "load_balancer",
    "api_gateway",
    "cdn",
    "service_mesh",
    "vpn",
    "private_link",
    // API
    "rest_api",
    "graphql_api",
    "grpc_service",
    "websocket_server",
    "event_stream",
    "message_queue",
    // databases
    "postgres",
    "mysql",
    "mssql",
    "sqlite",
    "dynamodb",
    "mongodb",
    "firestore",
    "cosmosdb",
    "redis",
    "memcached",
    "elasticache",
    "elasticsearch",
    "opensearch",
    "clickhouse",
    "bigquery",
    "cassandra",
    "timescaledb",
    "influxdb",
    "neo4j",
    "neptune",
    "vector_db",
    "pinecone",
    "weaviate",
    // storage
    "s3_bucket",
    "blob_storage",
    "object_store",
    // identity
    "oauth_provider",
    "identity_server",
    "jwt_issuer",
    // AI
    "inference_endpoint",
    "embedding_pipeline",
    "rag_store",
    "agent_runtime",
    "model_registry",
    "guardrail",
    // CI/CD
    "ci_runner",
    "package_registry",
    "container_registry",
    "static_host",
    "release_host",
    // generic
    "relational_db",
    "document_db",
    "time_series_db",
    "cache",
    "graph_db",
    "queue",
    "spatial_db",
    "cluster",
    "serverless",
    "p2p",
    "ble",
    "lora",
    "grpc_channel",
    "websocket",
    "fine_tune_job",
    "eval_harness",
];

/// Resource types (9).
pub const RESOURCE_TYPES: [&str; 9] = [
    "secure_storage",
    "local_preferences",
    "external_api",
    "local_database",
    "reactive_stream",
    "message_bus",
    "file_system",
    "sensor",
    "device_hardware",
];

/// Component roles (7).
pub const ROLES: [&str; 7] = [
    "presentation",
    "application",
    "domain",
    "data_access",
    "infrastructure",
    "integration",
    "test",
];

/// Trust levels (3).
pub const TRUST_LEVELS: [&str; 3] = ["trusted", "untrusted", "semi_trusted"];

/// Connectivity values (3).
pub const CONNECTIVITY: [&str; 3] = ["always_on", "intermittent", "offline_first"];

/// Protocols (11).
pub const PROTOCOLS: [&str; 11] = [
    "http", "https", "h2", "h3", "grpc", "ws", "wss", "amqp", "mqtt", "tcp", "udp",
];

/// Auth values (8).
pub const AUTH: [&str; 8] = [
    "none", "jwt", "oauth2", "api_key", "mtls", "basic", "cookie", "saml",
];

/// GitHub token permissions, written with `-`.
pub const WORKFLOW_PERMISSIONS: [&str; 16] = [
    "actions",
    "attestations",
    "checks",
    "contents",
    "deployments",
    "discussions",
    "id-token",
    "issues",
    "metadata",
    "models",
    "packages",
    "pages",
    "pull-requests",
    "repository-projects",
    "security-events",
    "statuses",
];

/// Primitive types.
pub const PRIMITIVE_TYPES: [&str; 10] = [
    "UUID",
    "String",
    "Int",
    "Float",
    "Bool",
    "Money",
    "Timestamp",
    "DateTime",
    "Bytes",
    "Json",
];

/// The numeric primitives.
pub const NUMERIC_TYPES: [&str; 3] = ["Int", "Float", "Money"];

/// Names longer than this are never compared, so suggestions stay cheap on huge inputs.
const MAX_SUGGESTION_LENGTH: usize = 128;

/// The candidate closest to `name` by edit distance, if that distance is at most 2.
/// Ties are broken lexicographically.
pub fn suggest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    if name.len() > MAX_SUGGESTION_LENGTH {
        return None;
    }
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == name
            || candidate.len() > MAX_SUGGESTION_LENGTH
            || candidate.len().abs_diff(name.len()) > 2
        {
            continue;
        }
        let distance = edit_distance(name, candidate);
        if distance > 2 {
            continue;
        }
        let is_better = match best {
            None => true,
            Some((best_distance, best_name)) => (distance, candidate) < (best_distance, best_name),
        };
        if is_better {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// Products and common names people use where the vocabulary has their kind
/// (`node q : rabbitmq`, `node db : sqlserver`, `node ui : browser`): each is suggested only
/// when its kind is in the vocabulary at hand. Sorted by name.
const PRODUCTS: &[(&str, &str)] = &[
    ("activemq", "message_queue"),
    ("aurora", "relational_db"),
    ("azure_blob", "blob_storage"),
    ("azure_sql", "mssql"),
    ("azuresql", "mssql"),
    ("browser", "edge_desktop"),
    ("cockroachdb", "relational_db"),
    ("dragonfly", "redis"),
    ("event_hubs", "event_stream"),
    ("eventhubs", "event_stream"),
    ("gcs", "object_store"),
    ("kafka", "event_stream"),
    ("keydb", "redis"),
    ("kinesis", "event_stream"),
    ("mariadb", "mysql"),
    ("minio", "object_store"),
    ("mongo", "mongodb"),
    ("nats", "message_queue"),
    ("oracle", "relational_db"),
    ("pubsub", "message_queue"),
    ("pulsar", "event_stream"),
    ("r2", "object_store"),
    ("rabbitmq", "message_queue"),
    ("redpanda", "event_stream"),
    ("s3", "s3_bucket"),
    ("service_bus", "message_queue"),
    ("servicebus", "message_queue"),
    ("sns", "message_queue"),
    ("sql_server", "mssql"),
    ("sqlserver", "mssql"),
    ("sqs", "message_queue"),
    ("valkey", "redis"),
];

/// A suggestion for a word outside a closed vocabulary: the closest entry by edit distance,
/// else the kind of a product it names (`rabbitmq` → `message_queue`), else the longest entry
/// that the word extends or abbreviates (`redis_cluster` → `redis`).
pub fn suggest_vocabulary<'c>(word: &str, vocabulary: &[&'c str]) -> Option<&'c str> {
    if let Some(suggestion) = suggest(word, vocabulary.iter().copied()) {
        return Some(suggestion);
    }
    let lowered = word.to_ascii_lowercase();
    if let Some(exact) = vocabulary.iter().find(|entry| **entry == lowered) {
        return Some(exact);
    }
    let product = PRODUCTS
        .iter()
        .find(|(name, _)| *name == lowered)
        .and_then(|(_, kind)| vocabulary.iter().find(|entry| *entry == kind));
    if let Some(kind) = product {
        return Some(kind);
    }
    vocabulary
        .iter()
        .filter(|entry| {
            entry.len() >= 3
                && (lowered.starts_with(**entry) || entry.starts_with(lowered.as_str()))
        })
        .filter(|_| lowered.len() >= 3)
        .max_by(|left, right| left.len().cmp(&right.len()).then_with(|| right.cmp(left)))
        .copied()
}

/// Levenshtein distance over Unicode scalar values.
pub fn edit_distance(left: &str, right: &str) -> usize {
    let right: Vec<char> = right.chars().collect();
    let mut previous: Vec<usize> = (0..=right.len()).collect();
    let mut current = vec![0; right.len() + 1];
    for (left_index, left_char) in left.chars().enumerate() {
        let mut row = current.iter_mut();
        if let Some(first) = row.next() {
            *first = left_index + 1;
        }
        let mut diagonal = previous.first().copied().unwrap_or(0);
        let mut left_value = left_index + 1;
        for ((cell, above), right_char) in row.zip(previous.iter().skip(1)).zip(&right) {
            let substitution = diagonal + usize::from(left_char != *right_char);
            let value = substitution.min(above + 1).min(left_value + 1);
            diagonal = *above;
            *cell = value;
            left_value = value;
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous.last().copied().unwrap_or(0)
}

/// "a, b or c"
pub fn plain_list(words: &[&str]) -> String {
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("Api", "Api"), 0);
        assert_eq!(edit_distance("redis_cluster", "redis"), 8);
    }

    #[test]
    fn suggestion_prefers_smallest_then_lexicographic() {
        assert_eq!(suggest("Ap", ["Api", "Apx", "Web"]), Some("Api"));
        assert_eq!(suggest("Profil", ["Profile", "Order"]), Some("Profile"));
        assert_eq!(suggest("zzzz", ["Api"]), None);
    }

    #[test]
    fn vocabulary_suggestion_finds_extended_words() {
        assert_eq!(
            suggest_vocabulary("redis_cluster", &NODE_TYPES),
            Some("redis")
        );
        assert_eq!(
            suggest_vocabulary("postgress", &NODE_TYPES),
            Some("postgres")
        );
        assert_eq!(suggest_vocabulary("zz", &NODE_TYPES), None);
    }

    #[test]
    fn every_product_names_a_kind_and_no_kind() {
        let mut names: Vec<&str> = PRODUCTS.iter().map(|(name, _)| *name).collect();
        let sorted = names.clone();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names, sorted,
            "PRODUCTS is sorted by name, without duplicates"
        );
        for (name, kind) in PRODUCTS {
            assert!(
                NODE_TYPES.contains(kind) || RESOURCE_TYPES.contains(kind),
                "`{name}` suggests `{kind}`, which is no node or resource type"
            );
            assert!(
                !NODE_TYPES.contains(name) && !RESOURCE_TYPES.contains(name),
                "`{name}` is itself a type"
            );
        }
    }

    #[test]
    fn vocabularies_have_spec_sizes() {
        let mut node_types = NODE_TYPES.to_vec();
        node_types.sort_unstable();
        node_types.dedup();
        assert_eq!(node_types.len(), 78);
    }
}
