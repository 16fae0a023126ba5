//! Hindsight self-distillation's teacher: the privileged context it reads, its prompt,
//! and its scoring of the student's turns (the objective is `crate::grpo::distill`).
//!
//! The student samples as ever, through the agent's loop; each stored turn keeps the
//! conversation it answered and the judge's [`Feedback`] on its program (recorded by the
//! rollout hook from the steps that followed the reply). When the turn reaches the
//! trainer, the [`Teacher`] renders the same conversation with one addition at the end
//! of the last user message, a hindsight note that the student never sees, made of the
//! parts `distill.context` names:
//! - `compile_error`: the compiler's output, when the program did not compile;
//! - `failing_sample`: the first failing sample (the task's own, matched by name) with
//!   its input, the expected output and what the program printed, and the verdict there;
//! - `verdict`: the judge's verdict on the turn's submission;
//! - `reference`: the package's accepted reference solution in the pipeline's language,
//!   found as the warm start finds it (`super::problems::reference_solutions`), for training
//!   problems only: the teacher only scores training episodes, the references are read
//!   for the run's training list (which never holds a held-out or validation problem,
//!   `super::problems::chosen_training`), and they pass the warm start's leak check
//!   against the held-out texts before the model loads. A training problem without one is
//!   an error naming it, before training starts.
//!
//! The teacher then scores the student's reply tokens after its own prompt
//! ([`teacher_tokens`]; `crate::grpo::distill::align` lays the result on the student's
//! row). A turn for which no part applies (a first-turn restatement with no reference in
//! the context) is not scored: its teacher would read the student's own prompt, whose
//! term is zero; nor is one whose teacher sequence is longer than the model's context.
//!
//! The teacher's weights: a server's (`teacher_url`, `super::remote`: a stronger model
//! sharing the student's tokenizer, checked before training), or the run's starting
//! weights, frozen (`teacher: initial`,
//! held in the compute format as the KL reference is), or their moving average with the
//! student (`teacher: ema`, float32 masters updated after each optimizer update; a
//! resumed run's average starts again from the starting weights). A turn is scored once,
//! by the teacher of the moment it arrives.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use agent::model::{Message, Role};
use agent::task::Task;
use tch::{Device, Kind};

use super::config::{ContextPart, DistillConfig, TeacherKind};
use super::leak::check as check_leaks;
use super::problems::{Problem, ProblemSet, reference_solutions};
use super::remote::RemoteTeacher;
use super::rollout::{Feedback, Turn};
use crate::grpo::distill::{align, ema, score};
use crate::model::Model;
use crate::policy::prompt_ids;
use crate::tokenizer::ChatTokenizer;

/// The most characters of one piece of feedback (a compiler log, an output) the teacher
/// reads.
const PIECE_CHARS: usize = 1500;

fn fenced(text: &str) -> String {
    format!(
        "```\n{}\n```",
        agent::prompt::cut(text.trim_end(), PIECE_CHARS)
    )
}

/// The hindsight note for a turn of `task`: the parts of `config.context` that apply,
/// or `None` when none does.
pub fn context(
    config: &DistillConfig,
    task: &Task,
    feedback: &Feedback,
    reference: Option<(&str, &str)>,
) -> Option<String> {
    let mut parts = Vec::new();
    if config.has(ContextPart::CompileError)
        && let Some(log) = &feedback.compile_error
    {
        parts.push(format!(
            "Your program below did not compile. The compiler said:\n{}",
            fenced(log)
        ));
    }
    if config.has(ContextPart::FailingSample)
        && let Some((f, sample)) = feedback.failures.iter().find_map(|f| {
            task.samples
                .iter()
                .find(|s| s.name == f.name)
                .map(|s| (f, s))
        })
    {
        parts.push(format!(
            "Your program below fails sample {} ({}).\nInput:\n{}\nExpected output:\n{}\nYour program printed:\n{}",
            f.name,
            f.verdict,
            fenced(&sample.input),
            fenced(&sample.answer),
            fenced(&f.output)
        ));
    }
    if config.has(ContextPart::Verdict)
        && let Some(v) = &feedback.verdict
    {
        parts.push(format!("The judge's verdict on your submission: {v}."));
    }
    if config.has(ContextPart::Reference)
        && let Some((tag, source)) = reference
    {
        parts.push(format!(
            "A correct solution, for reference:\n```{tag}\n{}\n```",
            source.trim_end()
        ));
    }
    if parts.is_empty() {
        return None;
    }
    Some(format!(
        "\n\n(Hindsight notes, known after your reply.)\n{}",
        parts.join("\n\n")
    ))
}

/// The student's conversation with `note` added to the end of its last user message
/// (a new user message when it has none).
pub fn teacher_messages(messages: &[Message], note: &str) -> Vec<Message> {
    let mut out = messages.to_vec();
    match out.iter_mut().rev().find(|m| m.role == Role::User) {
        Some(m) => m.content.push_str(note),
        None => out.push(Message::user(note.trim_start())),
    }
    out
}

/// The teacher's token ids for a reply: the chat template of `messages` with `note`
/// (no note: the student's own prompt) and the assistant's turn opened, then `reply`;
/// with the teacher's prompt length.
pub fn teacher_tokens(
    tokenizer: &ChatTokenizer,
    messages: &[Message],
    note: Option<&str>,
    reply: &[i64],
) -> crate::Result<(Vec<i64>, usize)> {
    let mut ids = match note {
        Some(note) => prompt_ids(tokenizer, &teacher_messages(messages, note))?,
        None => prompt_ids(tokenizer, messages)?,
    };
    let prompt = ids.len();
    ids.extend_from_slice(reply);
    Ok((ids, prompt))
}

/// The reference solution of each training problem in `language` (the first accepted
/// one in path order), checked against the held-out and validation texts with the warm
/// start's leak check. A training problem without one is an error naming it.
pub fn references(
    training: &[std::sync::Arc<Task>],
    set: &ProblemSet,
    language: &str,
) -> anyhow::Result<BTreeMap<String, String>> {
    let kept_out: Vec<Problem> = set
        .held_out
        .iter()
        .chain(&set.validation)
        .cloned()
        .collect();
    let never: BTreeSet<&str> = kept_out.iter().map(|p| p.task.id.as_str()).collect();
    let mut out = BTreeMap::new();
    for task in training {
        if never.contains(task.id.as_str()) {
            anyhow::bail!(
                "distill.context reference: problem {} is held out (split.yaml): its solution never reaches a teacher",
                task.id
            );
        }
        let (_, source) = reference_solutions(task, language)
            .map_err(|e| anyhow::anyhow!("distill.context reference: {e}"))?
            .into_iter()
            .next()
            .ok_or_else(|| {
                anyhow::anyhow!("distill.context reference: problem {}: none", task.id)
            })?;
        out.insert(task.id.clone(), source);
    }
    let fed: Vec<String> = out.values().cloned().collect();
    let every: Vec<Problem> = set.training.iter().chain(&kept_out).cloned().collect();
    check_leaks(&fed, &kept_out, &every)?;
    Ok(out)
}

/// Who scores: a model in this process, or a server.
enum Scorer {
    Local(Box<Model>),
    Remote(RemoteTeacher),
}

/// The teacher of a run: its weights (or its server), its settings, and what it reads.
pub struct Teacher {
    scorer: Scorer,
    config: DistillConfig,
    tokenizer: ChatTokenizer,
    /// Each training problem's reference solution (empty without `reference`).
    references: BTreeMap<String, String>,
    /// The fence tag of the pipeline's language.
    tag: &'static str,
}

impl Teacher {
    /// The teacher of a run starting from `base` (the starting weights), with the
    /// training problems' `references` already read (and checked); it scores one turn
    /// per forward pass.
    pub fn new(
        config: DistillConfig,
        base: &Path,
        device: Device,
        compute: Kind,
        tokenizer: ChatTokenizer,
        references: BTreeMap<String, String>,
        language: Option<&str>,
    ) -> anyhow::Result<Teacher> {
        let scorer = match (&config.teacher_url, config.teacher) {
            (Some(url), _) => Scorer::Remote(RemoteTeacher::connect(
                url,
                config.teacher_model.clone(),
                &tokenizer,
            )?),
            (None, TeacherKind::Initial) => Scorer::Local(Box::new(
                Model::load_as(base, device, compute)
                    .map_err(|e| anyhow::anyhow!("teacher model {}: {e}", base.display()))?,
            )),
            (None, TeacherKind::Ema) => Scorer::Local(Box::new(
                Model::load(base, device)
                    .map(|mut m| {
                        m.set_compute(compute);
                        m
                    })
                    .map_err(|e| anyhow::anyhow!("teacher model {}: {e}", base.display()))?,
            )),
        };
        Ok(Teacher {
            scorer,
            config,
            tokenizer,
            references,
            tag: agent::prompt::language_words(language).1,
        })
    }

    /// The teacher's tokens for `turn` of `task` and its prompt length, or `None` when
    /// no part of the context applies.
    pub fn tokens_of(&self, task: &Task, turn: &Turn) -> anyhow::Result<Option<(Vec<i64>, usize)>> {
        let reference = self
            .references
            .get(&task.id)
            .map(|s| (self.tag, s.as_str()));
        let Some(note) = context(&self.config, task, &turn.feedback, reference) else {
            return Ok(None);
        };
        let prompt = turn.action.iter().take_while(|a| !**a).count();
        let (ids, len) = teacher_tokens(
            &self.tokenizer,
            &turn.messages,
            Some(&note),
            &turn.tokens[prompt..],
        )
        .map_err(|e| anyhow::anyhow!("teacher prompt of {}: {e}", task.id))?;
        Ok(Some((ids, len)))
    }

    /// Scores `turn` of `task`: its `teacher_logp`, laid out on the turn's row (left
    /// `None` when no part of the context applies).
    pub fn score_turn(&self, task: &Task, turn: &mut Turn) -> anyhow::Result<()> {
        let Some((ids, teacher_prompt)) = self.tokens_of(task, turn)? else {
            return Ok(());
        };
        let row = match &self.scorer {
            Scorer::Local(model) => {
                if ids.len() > model.config.max_position_embeddings {
                    // Longer than the teacher can read: the turn goes without its signal.
                    return Ok(());
                }
                score(model, &[ids])?.remove(0)
            }
            Scorer::Remote(remote) => remote.score(&ids)?,
        };
        let student_prompt = turn.action.iter().take_while(|a| !**a).count();
        turn.teacher_logp = Some(align(
            student_prompt,
            turn.tokens.len(),
            teacher_prompt,
            &row,
        ));
        Ok(())
    }

    /// After an optimizer update of `student`: the EMA teacher moves toward it (the
    /// frozen one stays).
    pub fn after_update(&self, student: &Model) -> anyhow::Result<()> {
        if let (TeacherKind::Ema, Scorer::Local(model)) = (self.config.teacher, &self.scorer) {
            ema(model, student, self.config.ema_decay)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::rollout::CaseFailure;
    use agent::task::Sample;

    fn task() -> Task {
        Task {
            id: "sumtwo".to_owned(),
            name: "Sum two".to_owned(),
            statement: "Read two integers and print their sum.".to_owned(),
            statement_format: "markdown".to_owned(),
            samples: vec![Sample {
                name: "1".to_owned(),
                input: "31337 4242\n".to_owned(),
                answer: "35579\n".to_owned(),
            }],
            time_limit: std::time::Duration::from_secs(1),
            memory_bytes: 1 << 28,
            package: None,
        }
    }

    fn feedback() -> Feedback {
        Feedback {
            compile_error: Some(
                "main.cpp:3:5: error: expected semicolon before quokka_marker".to_owned(),
            ),
            failures: vec![
                CaseFailure {
                    name: "own-7".to_owned(),
                    verdict: "RTE".to_owned(),
                    output: String::new(),
                },
                CaseFailure {
                    name: "1".to_owned(),
                    verdict: "WA".to_owned(),
                    output: "toucan_wrong_output 999\n".to_owned(),
                },
            ],
            verdict: Some("WA".to_owned()),
        }
    }

    const REFERENCE: &str = "a, b = map(int, input().split())\nprint(a + b)  # pelican_reference\n";

    #[test]
    fn the_note_holds_the_configured_parts_and_the_first_failing_sample() {
        let all = DistillConfig::default();
        let note =
            context(&all, &task(), &feedback(), Some(("python", REFERENCE))).expect("a note");
        for piece in [
            "quokka_marker",
            "fails sample 1 (WA)",
            "31337 4242",
            "35579",
            "toucan_wrong_output",
            "verdict on your submission: WA",
            "pelican_reference",
        ] {
            assert!(note.contains(piece), "{piece} missing from {note}");
        }
        // An own test is not a sample: it is not shown as one.
        assert!(!note.contains("own-7"), "{note}");
        let only_reference = DistillConfig {
            context: vec![ContextPart::Reference],
            ..DistillConfig::default()
        };
        let note = context(
            &only_reference,
            &task(),
            &feedback(),
            Some(("python", REFERENCE)),
        )
        .expect("a note");
        assert!(note.contains("pelican_reference") && !note.contains("quokka_marker"));
        // Nothing applies: no note (the teacher would be the student).
        assert_eq!(context(&only_reference, &task(), &feedback(), None), None);
        assert_eq!(context(&all, &task(), &Feedback::default(), None), None);
    }

    /// Where `needle` (its inner tokens, so that its edges may merge with what is
    /// around it) occurs in `haystack`.
    fn holds(haystack: &[i64], tokenizer: &ChatTokenizer, needle: &str) -> bool {
        let ids = tokenizer.encode(needle).expect("encode");
        let inner = &ids[1..ids.len() - 1];
        assert!(!inner.is_empty(), "{needle}: too short to check");
        haystack.windows(inner.len()).any(|w| w == inner)
    }

    /// On the real tokenizer's ids: the teacher's prompt holds the compiler's error, the
    /// failing sample (input, expected and actual output), the verdict and the reference
    /// solution; the student's holds none of them; both end with the same reply tokens;
    /// and with no note the teacher's tokens are the student's.
    #[test]
    fn the_teacher_prompt_holds_the_feedback_and_the_reference_and_the_student_prompt_does_not() {
        let Some(dir) = ci::require::env_path("ARENA_MODEL_DIR") else {
            return;
        };
        let tokenizer = ChatTokenizer::load(&dir).expect("tokenizer");
        let messages = vec![
            Message::system("You solve programming problems."),
            Message::user("Read two integers and print their sum. Write the program."),
        ];
        let reply = tokenizer
            .encode("```python\nprint(sum(map(int, input().split())))\n```")
            .expect("reply");
        let student = {
            let mut ids = prompt_ids(&tokenizer, &messages).expect("student prompt");
            ids.extend_from_slice(&reply);
            ids
        };
        let note = context(
            &DistillConfig::default(),
            &task(),
            &feedback(),
            Some(("python", REFERENCE)),
        )
        .expect("a note");
        let (teacher, prompt) =
            teacher_tokens(&tokenizer, &messages, Some(&note), &reply).expect("teacher");
        assert_eq!(&teacher[prompt..], &reply[..]);
        assert_eq!(&student[student.len() - reply.len()..], &reply[..]);
        for needle in [
            "error: expected semicolon before quokka_marker",
            "31337 4242",
            "toucan_wrong_output 999",
            "The judge's verdict on your submission: WA.",
            "print(a + b)  # pelican_reference",
            "Hindsight notes, known after your reply",
        ] {
            assert!(
                holds(&teacher[..prompt], &tokenizer, needle),
                "teacher lacks {needle}"
            );
            assert!(
                !holds(&student, &tokenizer, needle),
                "student holds {needle}"
            );
        }
        assert!(holds(
            &teacher[..prompt],
            &tokenizer,
            "Expected output:\n```\n35579\n```"
        ));
        let (same, same_prompt) =
            teacher_tokens(&tokenizer, &messages, None, &reply).expect("no note");
        assert_eq!(same, student);
        assert_eq!(same_prompt, student.len() - reply.len());
    }

    /// On SmolLM2 itself: with the reference solution in its prompt, the teacher gives
    /// that solution's tokens as a reply far more probability than the student, who
    /// reads the statement only; so the term pushes the student toward it.
    #[test]
    fn on_smollm2_the_teacher_with_the_reference_prefers_the_reference_reply() {
        let Some(dir) = ci::require::env_path("ARENA_MODEL_DIR") else {
            return;
        };
        let tokenizer = ChatTokenizer::load(&dir).expect("tokenizer");
        let model = Model::load(&dir, Device::Cpu).expect("model");
        let messages = vec![
            Message::system("You solve programming problems in Python 3."),
            Message::user("Read two integers on one line and print their sum. Write the program."),
        ];
        let mut reply = tokenizer
            .encode(&format!("```python\n{REFERENCE}```"))
            .expect("reply");
        reply.extend(tokenizer.eos_ids.first());
        let only_reference = DistillConfig {
            context: vec![ContextPart::Reference],
            ..DistillConfig::default()
        };
        let note = context(
            &only_reference,
            &task(),
            &Feedback::default(),
            Some(("python", REFERENCE)),
        )
        .expect("a note");
        let (student, student_prompt) =
            teacher_tokens(&tokenizer, &messages, None, &reply).expect("student");
        let (teacher, teacher_prompt) =
            teacher_tokens(&tokenizer, &messages, Some(&note), &reply).expect("teacher");
        let scored = score(&model, &[student.clone(), teacher]).expect("score");
        let s = align(student_prompt, student.len(), student_prompt, &scored[0]);
        let t = align(student_prompt, student.len(), teacher_prompt, &scored[1]);
        let n = reply.len() as f64;
        let s_mean = s[student_prompt..].iter().sum::<f64>() / n;
        let t_mean = t[student_prompt..].iter().sum::<f64>() / n;
        assert!(
            t_mean > s_mean + 0.5,
            "teacher {t_mean:.3} vs student {s_mean:.3} per token"
        );
    }
}
