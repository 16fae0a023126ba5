//! The agent's model client against the real `trainer serve` binary with SmolLM2 on port
//! 0: the health check, a whole reply and a streamed one with logprobs, the sampled
//! token ids (the server's `token_id` extension) and usage that agrees with them.
//! Under `CI=true` a missing model or trainer binary fails the test (`cargo test
//! --workspace` builds the binary beside this test's folder).

use agent::client::{ClientConfig, OpenAiClient};
use agent::model::{ChatModel, ChatReply, ChatRequest, FinishReason, Message, Sampling};

mod common;

/// Every completion carries its tokens, each with an id and a logprob, and the server's
/// usage counts exactly those tokens.
fn check_tokens(reply: &ChatReply, max_tokens: u32) {
    assert!(!reply.usage.counted_locally, "trainer serve reports usage");
    assert!(reply.usage.prompt_tokens > 0);
    let mut total = 0;
    for completion in &reply.completions {
        let tokens = completion.tokens.as_ref().expect("logprobs were asked for");
        assert!(!tokens.is_empty() && tokens.len() <= max_tokens as usize);
        for token in tokens {
            assert!(token.id.is_some(), "a token id: {token:?}");
            assert!(
                token.logprob.is_finite() && token.logprob <= 0.0,
                "{token:?}"
            );
        }
        if completion.finish_reason == FinishReason::Length {
            assert_eq!(tokens.len(), max_tokens as usize);
        }
        total += tokens.len() as u64;
    }
    assert_eq!(reply.usage.completion_tokens, total);
}

fn ids(reply: &ChatReply) -> Vec<Option<u32>> {
    reply.completions[0]
        .tokens
        .iter()
        .flatten()
        .map(|t| t.id)
        .collect()
}

#[tokio::test]
async fn the_model_client_talks_to_trainer_serve() {
    let Some(model) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let Some(binary) = common::binary("trainer") else {
        return;
    };
    let server = common::start_trainer(&binary, &model);
    let name = model
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a model folder name");
    let config = ClientConfig {
        request_timeout_ms: 60_000,
        ..ClientConfig::new(&server.base, name)
    };
    let whole = OpenAiClient::new(config.clone()).expect("a client");
    let streaming = OpenAiClient::new(ClientConfig {
        stream: true,
        ..config
    })
    .expect("a client");
    assert_eq!(whole.check().await.expect("healthy"), [name]);

    let max_tokens = 8;
    let request = ChatRequest {
        messages: vec![
            Message::system("You write C++."),
            Message::user("Write a C++ program that adds two numbers."),
        ],
        sampling: Sampling {
            temperature: 0.0,
            max_tokens,
            seed: Some(7),
            logprobs: true,
            ..Sampling::default()
        },
    };
    let one = whole.chat(&request).await.expect("a whole reply");
    assert_eq!(one.model, name);
    assert_eq!(one.completions.len(), 1);
    check_tokens(&one, max_tokens);

    // Greedy, so the stream samples the same tokens: the same text, ids and usage.
    let streamed = streaming.chat(&request).await.expect("a streamed reply");
    check_tokens(&streamed, max_tokens);
    assert_eq!(streamed.completions[0].text, one.completions[0].text);
    assert_eq!(ids(&streamed), ids(&one));
    assert_eq!(streamed.usage, one.usage);

    // Two sampled completions in one stream, each with its own tokens.
    let mut two = request.clone();
    two.sampling.temperature = 0.8;
    two.sampling.n = 2;
    let reply = streaming.chat(&two).await.expect("two completions");
    assert_eq!(reply.completions.len(), 2);
    check_tokens(&reply, max_tokens);
    assert_eq!(reply.usage.prompt_tokens, one.usage.prompt_tokens);
}
