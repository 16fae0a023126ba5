//! Chat templates rendered by the trainer (`tokenizer::ChatTokenizer`, minijinja) byte for
//! byte as transformers' `apply_chat_template` renders them (jinja2, run with the
//! project's venv, `ARENA_PYTHON`), on a conversation with a system message, two user
//! turns and the generation prompt, for templates written here in the style of
//! SmolLM2's, Llama 3's (date header from `strftime_now`, `|trim`, tools as
//! `tojson(indent=4)`, `raise_exception`) and Qwen2.5's (default system message, tools
//! through `tojson`), plus one in Qwen3's style (a `namespace` over `messages[::-1]`,
//! `startswith`/`split`/`strip`, `enable_thinking`). A template using a filter that does
//! not exist fails with its line. Under `CI=true` a missing python fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;
use trainer::tokenizer::ChatTokenizer;

const SMOL_STYLE: &str = r#"{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system
You are a small helpful model.<|im_end|>
' }}{% endif %}{{ '<|im_start|>' + message['role'] + '
' + message['content'] + '<|im_end|>' + '
' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant
' }}{% endif %}"#;

const LLAMA3_STYLE: &str = r#"{{- bos_token }}
{%- if not date_string is defined %}
    {%- if strftime_now is defined %}
        {%- set date_string = strftime_now("%d %b %Y") %}
    {%- else %}
        {%- set date_string = "01 Jan 2025" %}
    {%- endif %}
{%- endif %}
{%- if messages[0]['role'] == 'system' %}
    {%- set system_message = messages[0]['content']|trim %}
    {%- set messages = messages[1:] %}
{%- else %}
    {%- set system_message = "" %}
{%- endif %}
{{- "<|start_header_id|>system<|end_header_id|>\n\n" }}
{{- "Knowledge cutoff: 2023\n" }}
{{- "Date: " + date_string + "\n\n" }}
{%- if tools is not none %}
    {{- "You may call these functions:\n\n" }}
    {%- for t in tools %}
        {{- t | tojson(indent=4) }}
        {{- "\n\n" }}
    {%- endfor %}
{%- endif %}
{{- system_message }}
{{- "<|eot_id|>" }}
{%- for message in messages %}
    {%- if message.role not in ['user', 'assistant'] %}
        {{- raise_exception("Roles must be user or assistant, not " + message.role) }}
    {%- endif %}
    {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n' + message['content'] | trim + '<|eot_id|>' }}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}
{%- endif %}
"#;

const QWEN25_STYLE: &str = r#"{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are a helpful coding assistant.' }}
    {%- endif %}
    {{- "\n\n# Tools\n\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools><|im_end|>\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are a helpful coding assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant") %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}
"#;

const QWEN3_STYLE: &str = r#"{%- if messages[0].role == 'system' %}
    {{- '<|im_start|>system\n' + messages[0].content + '<|im_end|>\n' }}
{%- endif %}
{%- set ns = namespace(multi_step_tool=true, last_query_index=messages|length - 1) %}
{%- for message in messages[::-1] %}
    {%- set index = (messages|length - 1) - loop.index0 %}
    {%- if ns.multi_step_tool and message.role == "user" and not(message.content.startswith('<tool_response>') and message.content.endswith('</tool_response>')) %}
        {%- set ns.multi_step_tool = false %}
        {%- set ns.last_query_index = index %}
    {%- endif %}
{%- endfor %}
{%- for message in messages %}
    {%- if message.role == "user" or (message.role == "system" and not loop.first) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- elif message.role == "assistant" %}
        {%- set content = message.content %}
        {%- set reasoning_content = '' %}
        {%- if '</think>' in content %}
            {%- set reasoning_content = content.split('</think>')[0].rstrip('\n').split('<think>')[-1].lstrip('\n') %}
            {%- set content = content.split('</think>')[-1].lstrip('\n') %}
        {%- endif %}
        {%- if loop.index0 > ns.last_query_index and reasoning_content %}
            {{- '<|im_start|>' + message.role + '\n<think>\n' + reasoning_content.strip('\n') + '\n</think>\n\n' + content.lstrip('\n') }}
        {%- else %}
            {{- '<|im_start|>' + message.role + '\n' + content }}
        {%- endif %}
        {{- '<|im_end|>\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
    {%- if enable_thinking is defined and enable_thinking is false %}
        {{- '<think>\n\n</think>\n\n' }}
    {%- endif %}
{%- endif %}"#;

/// A word-level tokenizer of a few words and the special tokens, written by hand.
fn write_tokenizer(dir: &Path, template: &str, bos: Option<&str>, eos: &str) {
    std::fs::create_dir_all(dir).expect("mkdir");
    let special = [
        "<unk>",
        "<|im_start|>",
        "<|im_end|>",
        "<|endoftext|>",
        "<|begin_of_text|>",
        "<|start_header_id|>",
        "<|end_header_id|>",
        "<|eot_id|>",
    ];
    let words = ["system", "user", "assistant", "hello", "sum"];
    let mut vocab = serde_json::Map::new();
    for (i, t) in special.iter().chain(&words).enumerate() {
        vocab.insert((*t).to_owned(), json!(i));
    }
    let added: Vec<serde_json::Value> = special
        .iter()
        .enumerate()
        .map(|(i, t)| {
            json!({"id": i, "content": t, "single_word": false, "lstrip": false,
                   "rstrip": false, "normalized": false, "special": true})
        })
        .collect();
    let tokenizer = json!({
        "version": "1.0", "truncation": null, "padding": null, "added_tokens": added,
        "normalizer": null, "pre_tokenizer": {"type": "Whitespace"}, "post_processor": null,
        "decoder": null, "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "<unk>"}
    });
    std::fs::write(dir.join("tokenizer.json"), tokenizer.to_string()).expect("write");
    let mut config = json!({
        "tokenizer_class": "PreTrainedTokenizerFast", "eos_token": eos, "unk_token": "<unk>",
        "chat_template": template, "model_max_length": 1024
    });
    if let Some(bos) = bos {
        config["bos_token"] = json!(bos);
    }
    std::fs::write(dir.join("tokenizer_config.json"), config.to_string()).expect("write");
}

fn conversation() -> serde_json::Value {
    json!([
        {"role": "system", "content": "  You solve programming contest problems.\n"},
        {"role": "user", "content": "Read two integers and print their sum."},
        {"role": "assistant", "content": "<think>\nEasy.\n</think>\n\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b; }"},
        {"role": "user", "content": "Now in Python, please — with \"quotes\" and é."}
    ])
}

#[test]
fn templates_render_byte_for_byte_as_transformers() {
    let Some(python) = ci::require::env_path("ARENA_PYTHON") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let tool = json!({"type": "function", "function": {"name": "run", "description": "Runs <code> & reports",
        "parameters": {"type": "object", "properties": {"code": {"type": "string"}, "limit": {"type": "number", "default": 1.5}}, "required": ["code"]}}});
    let cases: Vec<(&str, &str, Option<&str>, &str, serde_json::Value)> = vec![
        ("smollm2", SMOL_STYLE, None, "<|im_end|>", json!({})),
        (
            "llama3",
            LLAMA3_STYLE,
            Some("<|begin_of_text|>"),
            "<|eot_id|>",
            json!({}),
        ),
        (
            "llama3-tools",
            LLAMA3_STYLE,
            Some("<|begin_of_text|>"),
            "<|eot_id|>",
            json!({"tools": [tool], "date_string": "26 Jul 2024"}),
        ),
        ("qwen2.5", QWEN25_STYLE, None, "<|im_end|>", json!({})),
        (
            "qwen2.5-tools",
            QWEN25_STYLE,
            None,
            "<|im_end|>",
            json!({"tools": [tool]}),
        ),
        ("qwen3", QWEN3_STYLE, None, "<|im_end|>", json!({})),
        (
            "qwen3-no-thinking",
            QWEN3_STYLE,
            None,
            "<|im_end|>",
            json!({"enable_thinking": false}),
        ),
    ];
    let mut spec = Vec::new();
    let mut ours = Vec::new();
    for (name, template, bos, eos, kwargs) in &cases {
        let dir = tmp.path().join(name);
        write_tokenizer(&dir, template, *bos, eos);
        let tokenizer = ChatTokenizer::load(&dir).expect("tokenizer loads");
        let extra = kwargs.as_object().expect("object").clone();
        ours.push(
            tokenizer
                .render(&conversation(), true, &extra)
                .unwrap_or_else(|e| panic!("{name}: {e}")),
        );
        spec.push(json!({"dir": dir, "messages": conversation(),
                         "add_generation_prompt": true, "kwargs": kwargs}));
    }
    let spec_path = tmp.path().join("cases.json");
    std::fs::write(&spec_path, serde_json::to_string(&spec).expect("json")).expect("write");
    let out_path = tmp.path().join("out.json");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/families.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg("chat")
        .arg(&spec_path)
        .arg(&out_path)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "families.py chat: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(&out_path).expect("out")).expect("json");
    for ((name, ..), (a, b)) in cases.iter().zip(ours.iter().zip(&theirs)) {
        assert_eq!(a, b, "{name}: the trainer's render against transformers'");
    }
    // The cases differ where their options do.
    assert!(ours[2].contains("\"description\": \"Runs <code> & reports\""));
    assert!(ours[6].ends_with("<|im_start|>assistant\n<think>\n\n</think>\n\n"));
    assert!(
        !ours[5].contains("Easy."),
        "reasoning before the last query is dropped"
    );
}

#[test]
fn an_unsupported_template_fails_with_its_line() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let template = "{% for m in messages %}\n{{ m.content | shout }}\n{% endfor %}";
    write_tokenizer(tmp.path(), template, None, "<|im_end|>");
    let tokenizer = ChatTokenizer::load(tmp.path()).expect("loads: the filter is looked up late");
    let err = tokenizer
        .apply_chat_template(
            &[trainer::tokenizer::Message {
                role: "user".into(),
                content: "hi".into(),
            }],
            true,
        )
        .expect_err("no filter `shout`")
        .to_string();
    assert!(
        err.contains("chat template line 2") && err.contains("{{ m.content | shout }}"),
        "{err}"
    );
    // Raised by the template itself: its message and line.
    write_tokenizer(
        tmp.path(),
        LLAMA3_STYLE,
        Some("<|begin_of_text|>"),
        "<|eot_id|>",
    );
    let tokenizer = ChatTokenizer::load(tmp.path()).expect("loads");
    let err = tokenizer
        .apply_chat_template(
            &[trainer::tokenizer::Message {
                role: "tool".into(),
                content: "42".into(),
            }],
            true,
        )
        .expect_err("a tool role is refused by the template")
        .to_string();
    assert!(
        err.contains("Roles must be user or assistant, not tool") && err.contains("line 29"),
        "{err}"
    );
}
