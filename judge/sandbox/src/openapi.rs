//! The OpenAPI 3.0 document of the three APIs, served at `GET /openapi.json`: every route
//! with its request and answer schemas, the errors each answers in its API's shape
//! (400, 401, 413, 422, 500, 503, 504) and the bearer token.

use serde_json::{Value, json};

/// A JSON schema reference to `#/components/schemas/{name}`.
fn schema(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// A JSON body of `name`.
fn body(name: &str) -> Value {
    json!({"required": true, "content": {"application/json": {"schema": schema(name)}}})
}

/// An answer of `name` with `description`.
fn answer(description: &str, name: &str) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": schema(name)}}})
}

/// Which API's error bodies a route answers in.
#[derive(Clone, Copy, PartialEq)]
enum Dialect {
    /// `{"detail": message}`; a field's error is 422, the server's own failure 200
    /// `SandboxError`.
    Fusion,
    /// `{"error": message}`; a field's error is 422 `{field: [message]}`.
    Judge0,
    /// `{"error": message}` naming the field (400) or the limit.
    Native,
}

/// The refusals a judging route may answer in its dialect; `internal` when its judging
/// runs in a task of its own, whose failure is answered 500 (not on `/run_code`).
fn refusals(mut responses: Value, dialect: Dialect, internal: bool) -> Value {
    let body = if dialect == Dialect::Fusion {
        "Detail"
    } else {
        "Error"
    };
    let mut answers = vec![
        ("401", "a token is needed (--token)", "Error"),
        (
            "413",
            "a size or count above a limit; the message names it and its option",
            body,
        ),
        (
            "503",
            "the queue is full; Retry-After says when to retry",
            body,
        ),
    ];
    if dialect == Dialect::Native {
        answers.push(("400", "a field's value is out of range", "Error"));
    }
    if internal && dialect != Dialect::Fusion {
        answers.push((
            "500",
            "the server failed while judging (a task that panicked)",
            "Error",
        ));
    }
    for (code, text, name) in answers {
        responses[code] = answer(text, name);
    }
    responses
}

/// The document.
pub fn document() -> Value {
    json!({
        "openapi": "3.0.3",
        "info": {
            "title": "judge sandbox",
            "version": "1",
            "description": "This repository's judge as a code-execution and reward service: SandboxFusion's /run_code, Judge0 CE's submissions, and the native /v1/evaluate (several programs, each compiled once, per-test results and scores)."
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": schemas(),
        },
        "security": [{"bearer": []}],
        "paths": paths(),
    })
}

fn paths() -> Value {
    json!({
        "/v1/ping": {"get": {
            "tags": ["SandboxFusion"], "summary": "Liveness: answers \"pong\"", "security": [],
            "responses": {"200": {"description": "pong", "content": {"application/json": {"schema": {"type": "string", "enum": ["pong"]}}}}}
        }},
        "/run_code": {"post": {
            "tags": ["SandboxFusion"],
            "summary": "Run one program on one input (SandboxFusion's API); always 200 for a valid request",
            "requestBody": body("RunCodeRequest"),
            "responses": refusals(json!({
                "200": answer("Success, Failed or SandboxError (also the server's own failure)", "RunCodeResponse"),
                "422": answer("an unknown language, a value out of range or a malformed body (FastAPI's shape)", "ValidationError"),
                "504": answer("no worker became free within the queue timeout (verl retries 504)", "Detail"),
            }), Dialect::Fusion, false),
        }},
        "/languages": {"get": {
            "tags": ["Judge0"], "summary": "Judge0 language ids this server runs",
            "responses": {"200": {"description": "languages", "content": {"application/json": {"schema": {"type": "array", "items": schema("Judge0Language")}}}}}
        }},
        "/languages/{id}": {"get": {
            "tags": ["Judge0"], "summary": "One language with its commands",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
            "responses": {"200": answer("the language", "Judge0Language"), "404": answer("unknown id", "Error")}
        }},
        "/statuses": {"get": {
            "tags": ["Judge0"], "summary": "Status ids 1 to 14 with Judge0's descriptions",
            "responses": {"200": {"description": "statuses", "content": {"application/json": {"schema": {"type": "array", "items": schema("Judge0Status")}}}}}
        }},
        "/about": {"get": {"tags": ["Judge0"], "summary": "Version 1.13.1 of Judge0 CE's API", "responses": {"200": {"description": "about", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
        "/config_info": {"get": {"tags": ["Judge0"], "summary": "Judge0's configuration fields as this server applies them", "responses": {"200": {"description": "configuration", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
        "/submissions": {"post": {
            "tags": ["Judge0"], "summary": "Create a submission; with wait=true, answer when judged",
            "parameters": [
                {"name": "base64_encoded", "in": "query", "schema": {"type": "boolean"}},
                {"name": "wait", "in": "query", "schema": {"type": "boolean"}},
                {"name": "fields", "in": "query", "schema": {"type": "string"}}
            ],
            "requestBody": body("Judge0Submission"),
            "responses": refusals(json!({
                "201": answer("the token, or the judged submission when wait=true", "Judge0Result"),
                "422": answer("a field refused: {field: [message]}", "Error"),
            }), Dialect::Judge0, true),
        }},
        "/submissions/batch": {
            "post": {
                "tags": ["Judge0"], "summary": "Create at most 20 submissions",
                "parameters": [{"name": "base64_encoded", "in": "query", "schema": {"type": "boolean"}}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["submissions"], "properties": {"submissions": {"type": "array", "maxItems": 20, "items": schema("Judge0Submission")}}}}}},
                "responses": refusals(json!({"201": {"description": "one {token} (or {field: [error]}) per submission", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object"}}}}}}), Dialect::Judge0, false),
            },
            "get": {
                "tags": ["Judge0"], "summary": "Several submissions by token",
                "parameters": [
                    {"name": "tokens", "in": "query", "required": true, "schema": {"type": "string"}},
                    {"name": "base64_encoded", "in": "query", "schema": {"type": "boolean"}},
                    {"name": "fields", "in": "query", "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "{submissions: [...]}, null for an unknown token", "content": {"application/json": {"schema": {"type": "object"}}}}}
            }
        },
        "/submissions/{token}": {"get": {
            "tags": ["Judge0"], "summary": "One submission; fields=* for all",
            "parameters": [
                {"name": "token", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}},
                {"name": "base64_encoded", "in": "query", "schema": {"type": "boolean"}},
                {"name": "fields", "in": "query", "schema": {"type": "string"}}
            ],
            "responses": {"200": answer("the submission", "Judge0Result"), "404": answer("unknown token", "Error")}
        }},
        "/v1/evaluate": {"post": {
            "tags": ["native"],
            "summary": "Judge several programs on inline tests or a server problem; each distinct program compiled once",
            "requestBody": body("EvaluateRequest"),
            "responses": refusals(json!({
                "200": answer("per program: status, verdict, per-test results, scores, first failure", "EvaluateResponse"),
                "404": answer("an unknown problem", "Error"),
            }), Dialect::Native, true),
        }},
        "/v1/problems": {"get": {
            "tags": ["native"], "summary": "The problems of the server's packages",
            "responses": {"200": {"description": "problems", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object"}}}}}}
        }},
        "/metrics": {"get": {
            "tags": ["operations"], "summary": "Prometheus text format: queue depth, programs and tests judged, verdicts, compile-cache hits, tests per second",
            "responses": {"200": {"description": "metrics", "content": {"text/plain": {"schema": {"type": "string"}}}}}
        }},
        "/openapi.json": {"get": {"tags": ["operations"], "summary": "This document", "responses": {"200": {"description": "OpenAPI 3.0", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
    })
}

fn stage() -> Value {
    json!({
        "type": "object", "nullable": true,
        "properties": {
            "status": {"type": "string", "enum": ["Finished", "Error", "TimeLimitExceeded"]},
            "execution_time": {"type": "number", "nullable": true, "description": "wall seconds"},
            "return_code": {"type": "integer", "nullable": true, "description": "never 0 on a failed verdict: MLE 137, OLE 153, RTE 1 when the program exited 0"},
            "stdout": {"type": "string"},
            "stderr": {"type": "string"},
            "verdict": {"type": "string", "enum": ["OK", "TLE", "MLE", "OLE", "RTE", "CE"], "description": "extra: the judge's verdict"},
            "cpu_time": {"type": "number", "nullable": true, "description": "extra: CPU seconds"},
            "memory_kb": {"type": "integer", "nullable": true, "description": "extra: peak memory"},
            "signal": {"type": "integer", "nullable": true, "description": "extra"},
            "exit_code": {"type": "integer", "nullable": true, "description": "extra: the program's own exit code"}
        }
    })
}

fn schemas() -> Value {
    let verdict =
        json!({"type": "string", "enum": ["AC", "WA", "TLE", "MLE", "RTE", "OLE", "CE", "JE"]});
    json!({
        "Error": {"type": "object", "description": "{error} (native, Judge0; native adds field, or limit and option) or {field: [message]} (Judge0 422)"},
        "Detail": {"type": "object", "description": "SandboxFusion's refusals", "properties": {"detail": {"type": "string"}}},
        "ValidationError": {"type": "object", "properties": {"detail": {"type": "array", "items": {"type": "object", "properties": {"loc": {"type": "array", "items": {"type": "string"}}, "msg": {"type": "string"}, "type": {"type": "string"}}}}}},
        "RunCodeRequest": {
            "type": "object", "required": ["code"],
            "properties": {
                "code": {"type": "string"},
                "language": {"type": "string", "enum": ["python", "cpp", "c", "java", "kotlin"], "default": "python"},
                "stdin": {"type": "string", "nullable": true},
                "compile_timeout": {"type": "number", "description": "not a limit (the judge's compile limits apply); only shortens the wait for a worker, as verl's HTTP timeout counts it"},
                "run_timeout": {"type": "number", "default": 10, "description": "CPU seconds"},
                "memory_limit_MB": {"type": "number", "default": -1, "description": "-1: the server's default"},
                "files": {"type": "object", "description": "must be empty"},
                "fetch_files": {"type": "array", "items": {"type": "string"}, "description": "must be empty"}
            }
        },
        "RunCodeResponse": {
            "type": "object",
            "properties": {
                "status": {"type": "string", "enum": ["Success", "Failed", "SandboxError"]},
                "message": {"type": "string"},
                "compile_result": stage(),
                "run_result": stage(),
                "executor_pod_name": {"type": "string", "nullable": true},
                "files": {"type": "object"}
            }
        },
        "Judge0Language": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}},
        "Judge0Status": {"type": "object", "properties": {"id": {"type": "integer", "minimum": 1, "maximum": 14}, "description": {"type": "string"}}},
        "Judge0Submission": {
            "type": "object", "required": ["source_code", "language_id"],
            "properties": {
                "source_code": {"type": "string"}, "language_id": {"type": "integer"},
                "stdin": {"type": "string"}, "expected_output": {"type": "string"},
                "cpu_time_limit": {"type": "number", "default": 5},
                "memory_limit": {"type": "number", "default": 128000, "description": "KB"},
                "wall_time_limit": {"type": "number", "description": "read, not used"}
            }
        },
        "Judge0Result": {
            "type": "object",
            "properties": {
                "token": {"type": "string", "format": "uuid"},
                "stdout": {"type": "string", "nullable": true}, "stderr": {"type": "string", "nullable": true},
                "compile_output": {"type": "string", "nullable": true}, "message": {"type": "string", "nullable": true},
                "exit_code": {"type": "integer", "nullable": true}, "exit_signal": {"type": "integer", "nullable": true},
                "status": schema("Judge0Status"),
                "time": {"type": "string", "nullable": true, "description": "CPU seconds"},
                "wall_time": {"type": "string", "nullable": true},
                "memory": {"type": "integer", "nullable": true, "description": "KB"}
            }
        },
        "EvaluateRequest": {
            "type": "object", "required": ["programs"],
            "properties": {
                "programs": {"type": "array", "items": {"type": "object", "required": ["language", "source"], "properties": {"language": {"type": "string"}, "source": {"type": "string"}}}},
                "problem": {"type": "string", "description": "a problem of GET /v1/problems"},
                "tests": {"type": "array", "items": {"type": "object", "required": ["input", "output"], "properties": {"input": {"type": "string"}, "output": {"type": "string"}, "group": {"type": "string"}}}},
                "limits": {"type": "object", "properties": {"time_s": {"type": "number", "default": 2}, "memory_mb": {"type": "number"}, "output_mb": {"type": "number", "default": 8}}},
                "checker": {"type": "object", "properties": {"case_sensitive": {"type": "boolean"}, "space_change_sensitive": {"type": "boolean"}, "float_tolerance": {"type": "number"}, "float_absolute_tolerance": {"type": "number"}, "float_relative_tolerance": {"type": "number"}}},
                "stop_at_first_failure": {"type": "boolean", "default": false}
            }
        },
        "EvaluateResponse": {
            "type": "object",
            "properties": {
                "problem": {"type": "string", "nullable": true},
                "total_tests": {"type": "integer"},
                "distinct_programs": {"type": "integer"},
                "compile_cache_hits": {"type": "integer"},
                "results": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "index": {"type": "integer"},
                        "language": {"type": "string"},
                        "status": {"type": "string", "enum": ["judged", "judge_error"]},
                        "error": {"type": "string", "nullable": true},
                        "verdict": verdict.clone(),
                        "duplicate_of": {"type": "integer", "nullable": true},
                        "compile": {"type": "object", "nullable": true, "properties": {"ok": {"type": "boolean"}, "cached": {"type": "boolean"}, "message": {"type": "string"}, "time": {"type": "number"}, "timed_out": {"type": "boolean"}}},
                        "tests": {"type": "array", "items": {"type": "object", "properties": {
                            "index": {"type": "integer"}, "name": {"type": "string"}, "group": {"type": "string"},
                            "verdict": verdict.clone(), "cpu_time": {"type": "number"}, "wall_time": {"type": "number"},
                            "memory_kb": {"type": "integer"}, "exit_code": {"type": "integer", "nullable": true},
                            "signal": {"type": "integer", "nullable": true}, "score": {"type": "number", "nullable": true}
                        }}},
                        "scores": {"type": "object", "nullable": true, "properties": {
                            "passed": {"type": "integer"}, "total": {"type": "integer"}, "fraction": {"type": "number"},
                            "all_or_nothing": {"type": "number"}, "ioi": {"type": "number"},
                            "points": {"type": "number", "nullable": true}, "max_points": {"type": "number", "nullable": true}
                        }},
                        "first_failure": {"type": "object", "nullable": true, "properties": {
                            "index": {"type": "integer"}, "name": {"type": "string"}, "verdict": verdict,
                            "input": {"type": "string"}, "expected": {"type": "string"}, "got": {"type": "string"}, "message": {"type": "string"}
                        }}
                    }
                }}
            }
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reference_resolves_and_every_api_is_described() {
        let doc = document();
        let text = doc.to_string();
        let schemas = doc["components"]["schemas"].as_object().expect("schemas");
        for (at, _) in text.match_indices("#/components/schemas/") {
            let rest = &text[at + "#/components/schemas/".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
            assert!(schemas.contains_key(&name), "{name}");
        }
        for path in [
            "/run_code",
            "/v1/ping",
            "/submissions",
            "/languages",
            "/v1/evaluate",
            "/metrics",
        ] {
            assert!(doc["paths"].get(path).is_some(), "{path}");
        }
    }

    #[test]
    fn each_route_lists_the_answers_it_sends_in_its_shape() {
        let doc = document();
        let responses = |path: &str, method: &str| {
            doc["paths"][path][method]["responses"]
                .as_object()
                .expect("responses")
                .clone()
        };
        let schema_of = |it: &Value| it["content"]["application/json"]["schema"]["$ref"].clone();
        let fusion = responses("/run_code", "post");
        // A field's error is 422 there, and a failure of the server 200 SandboxError.
        assert!(!fusion.contains_key("400") && !fusion.contains_key("500"));
        for code in ["413", "503", "504"] {
            assert_eq!(
                schema_of(&fusion[code]),
                "#/components/schemas/Detail",
                "{code}"
            );
        }
        let judge0 = responses("/submissions", "post");
        assert!(!judge0.contains_key("400"));
        assert!(judge0.contains_key("500") && judge0.contains_key("422"));
        let native = responses("/v1/evaluate", "post");
        for code in ["400", "401", "404", "413", "500", "503"] {
            assert_eq!(
                schema_of(&native[code]),
                "#/components/schemas/Error",
                "{code}"
            );
        }
    }
}
