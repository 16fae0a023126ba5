//! The local policy behind the agent's `ChatModel` trait: a tiny random model with
//! SmolLM2's tokenizer and chat template (`ARENA_MODEL_DIR`; under `CI=true` a missing
//! model fails the test). Replies carry the prompt's ids, each token's id and sampling
//! logprob (checked against teacher-forced logprobs of the same weights) and the policy
//! version, before and after a weight update; concurrent requests share the decoder.

use agent::model::{ChatModel, ChatRequest, Message, ModelError, Sampling};
use tch::Device;
use trainer::batching::OnWeights;
use trainer::config::Config;
use trainer::grpo::logprob::sequence_logprobs;
use trainer::model::Model;
use trainer::policy::LocalPolicy;
use trainer::tokenizer::ChatTokenizer;

fn random_model(seed: i64) -> Model {
    tch::manual_seed(seed);
    let config: Config = serde_json::from_value(serde_json::json!({
        "model_type": "llama", "vocab_size": 49152, "hidden_size": 16, "intermediate_size": 32,
        "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
        "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 256,
        "tie_word_embeddings": true
    }))
    .expect("config");
    Model::new(config, Device::Cpu)
}

fn twin(model: &Model) -> Model {
    let mut copy = Model::new(model.config.clone(), Device::Cpu);
    copy.vs.copy(&model.vs).expect("same variables");
    copy
}

fn request(n: u32, seed: u64, max_tokens: u32) -> ChatRequest {
    ChatRequest {
        messages: vec![
            Message::system("You solve problems."),
            Message::user("Print the sum of two numbers."),
        ],
        sampling: Sampling {
            temperature: 1.0,
            top_p: 1.0,
            max_tokens,
            stop: vec![],
            seed: Some(seed),
            n,
            logprobs: true,
        },
    }
}

/// Every token's logprob against the teacher-forced logprob under `model`.
fn check_logprobs(model: &Model, prompt: &[u32], reply: &agent::model::ChatReply) {
    for c in &reply.completions {
        let tokens = c.tokens.as_ref().expect("tokens");
        let ids: Vec<i64> = prompt
            .iter()
            .map(|t| i64::from(*t))
            .chain(tokens.iter().map(|t| i64::from(t.id.expect("id"))))
            .collect();
        let logp = tch::no_grad(|| sequence_logprobs(model, &[ids]).expect("logprobs"));
        for (k, t) in tokens.iter().enumerate() {
            let want = logp.double_value(&[0, (prompt.len() + k - 1) as i64]);
            assert!(
                (f64::from(t.logprob) - want).abs() < 1e-3,
                "token {k}: {} != {want}",
                t.logprob
            );
        }
    }
}

#[tokio::test]
async fn replies_carry_token_ids_logprobs_and_the_policy_version() {
    let Some(dir) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let tokenizer = ChatTokenizer::load(&dir).expect("tokenizer");
    let model = random_model(4);
    let reference = twin(&model);
    let policy = LocalPolicy::new("tiny", model, tokenizer, 4, OnWeights::Drain, 0);
    assert_eq!(policy.endpoint(), "local");

    let reply = policy.chat(&request(3, 42, 6)).await.expect("reply");
    assert_eq!(reply.completions.len(), 3);
    assert_eq!(reply.policy_version, Some(0));
    let prompt = reply.prompt_token_ids.clone().expect("prompt ids");
    assert_eq!(reply.usage.prompt_tokens, prompt.len() as u64);
    let texts = ChatTokenizer::load(&dir).expect("tokenizer");
    let rendered = texts
        .apply_chat_template(
            &[
                trainer::tokenizer::Message {
                    role: "system".into(),
                    content: "You solve problems.".into(),
                },
                trainer::tokenizer::Message {
                    role: "user".into(),
                    content: "Print the sum of two numbers.".into(),
                },
            ],
            true,
        )
        .expect("template");
    let want: Vec<u32> = texts
        .encode(&rendered)
        .expect("ids")
        .into_iter()
        .map(|t| t as u32)
        .collect();
    assert_eq!(prompt, want);
    check_logprobs(&reference, &prompt, &reply);
    let total: usize = reply
        .completions
        .iter()
        .map(|c| c.tokens.as_ref().expect("tokens").len())
        .sum();
    assert_eq!(reply.usage.completion_tokens, total as u64);
    // The same seed gives the same completions, whatever else is decoded beside them.
    let (first, second) = (request(3, 42, 6), request(2, 7, 9));
    let (again, other) = tokio::join!(policy.chat(&first), policy.chat(&second));
    let again = again.expect("reply");
    other.expect("reply");
    assert_eq!(
        again
            .completions
            .iter()
            .map(|c| c.text.clone())
            .collect::<Vec<_>>(),
        reply
            .completions
            .iter()
            .map(|c| c.text.clone())
            .collect::<Vec<_>>()
    );

    // New weights: the next reply is sampled by version 1.
    let new = random_model(5);
    policy.update_weights(&new.vs, 1).expect("update");
    let after = policy.chat(&request(2, 42, 6)).await.expect("reply");
    assert_eq!(after.policy_version, Some(1));
    check_logprobs(&new, &prompt, &after);

    // A request that cannot fit the context is the policy's error, naming it.
    let err = policy
        .chat(&request(1, 1, 1000))
        .await
        .expect_err("too long");
    assert!(
        matches!(&err, ModelError::Local(m) if m.contains("more than the context of 256")),
        "{err}"
    );
}
