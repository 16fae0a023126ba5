//! `agent demo`: the main job on one machine. It writes a demo contest (bundled easy and
//! harder problems, or `--problems`), starts `judge serve` (SQLite in the run folder or
//! `--db`, Docker or bubblewrap) and `trainer serve` (SmolLM2, unless `--model-url`
//! names another OpenAI-compatible server), found beside the `agent` binary; prints the
//! web page's URL and the guest tokens for people who want to join; lets scripted teams
//! submit the packages' reference and wrong solutions at set times; plays the contest
//! live with the model through [`agent::play::play`] for `--duration` seconds (a second
//! model team from `--trained-checkpoint`, served by a second `trainer serve`); then
//! prints the final standings with the agent placed and writes `report.md`,
//! `report.json` and `board.svg` beside the agents' run folders (trajectories).
//!
//! Layout of the run folder: `contest.yaml`, `contest.db`, `judge.log`, `trainer*.log`,
//! `agent-base/` (and `agent-trained/`: `agent play` run folders with `play.jsonl` and
//! `trajectories/`), `report.md`, `report.json`, `board.svg`.
//!
//! The code follows those steps: [`demo`] checks the settings, makes the teams
//! (`roster`), starts the model servers (`start_models`), writes the contest
//! (`contest_yaml`), starts `judge serve` (`start_judge`) and says where it is
//! (`announce`); [`live`] waits for the start (`begin`), plays (`play_config` per model
//! team), lets the last judgements settle (`settle`) and writes the report (`report`).

mod board;
mod procs;
mod scripted;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use agent::client::contest::ContestClient;
use agent::client::{ClientConfig, OpenAiClient};
use agent::local::WorkbenchRunner;
use agent::model::ChatModel;
use agent::pipeline::{Budget, Pipeline};
use agent::play::strategy::TimeConfig;
use agent::play::{PlayConfig, PlaySummary};
use agent::trajectory::{FORMAT, Manifest, ModelInfo};
use anyhow::{Context, bail};
use clap::Args;
use judge::sandbox::{BackendKind, SandboxConfig};
use judge::workbench::Workbench;
use serde_json::json;

use board::{Kind, TeamInfo};
use scripted::{ScriptProblem, ScriptTeam};

/// The bundled demo contest: easy problems a small model sometimes solves, then harder
/// ones (paths from the workspace's root).
const BUNDLED: [&str; 6] = [
    "problems/packages/sum",
    "problems/easy/aplusb",
    "problems/easy/evenodd",
    "problems/easy/maxofthree",
    "problems/packages/pairsums",
    "problems/packages/rangesum",
];

/// The name the bundled model is served and recorded under.
const BUNDLED_MODEL: &str = "SmolLM2-135M-Instruct";

/// `agent demo`'s command line.
#[derive(Args)]
pub(crate) struct DemoArgs {
    /// The run folder (made; it must not hold an earlier demo).
    #[arg(long, default_value = "arena-demo")]
    out: PathBuf,
    /// Seconds the agent plays (the scripted teams' submissions spread over them).
    #[arg(long, default_value_t = 180)]
    duration: u64,
    /// A folder of problem packages for the contest instead of the bundled demo set
    /// (every subfolder with a problem.yaml, in name order; at most 26).
    #[arg(long)]
    problems: Option<PathBuf>,
    /// The contest database (`sqlite://FILE` or `postgres://...`; default: a SQLite file
    /// in the run folder).
    #[arg(long)]
    db: Option<String>,
    /// The sandbox backend (default: Docker when it answers, else bubblewrap).
    #[arg(long, value_enum)]
    backend: Option<BackendKind>,
    /// An OpenAI-compatible model server (`http://host:port` or `.../v1`) to play with
    /// instead of the bundled SmolLM2 (no `trainer serve` is started).
    #[arg(long, requires = "model_name")]
    model_url: Option<String>,
    /// The model's name on `--model-url`.
    #[arg(long)]
    model_name: Option<String>,
    /// The environment variable holding `--model-url`'s API key.
    #[arg(long, default_value = "OPENAI_API_KEY")]
    api_key_env: String,
    /// The bundled model's folder (a Hugging Face folder `trainer serve` loads).
    #[arg(long, env = "ARENA_MODEL_DIR")]
    model_dir: Option<PathBuf>,
    /// A trained checkpoint: a second `trainer serve` plays it as a second team beside the
    /// base model. A Hugging Face folder (`trainer train`'s `checkpoints/step-N/`), or the
    /// folder of a `trainer train` run (its `best`, else the one `latest` names) or of
    /// `ci/train` (the one its `checkpoint` file names).
    #[arg(long, conflicts_with = "model_url")]
    trained_checkpoint: Option<PathBuf>,
    /// Where the contest server listens (`0.0.0.0:8080` lets others on the network join).
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: String,
    /// `full`, `short`, or a pipeline file.
    #[arg(long, default_value = "short")]
    pipeline: String,
    /// The most tokens per model reply.
    #[arg(long, default_value_t = 384)]
    max_tokens: u32,
    /// Seats for people joining through the web page (each with a token).
    #[arg(long, default_value_t = 2)]
    guests: usize,
    /// The seed (the scripted teams' times, the agent's sampling).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// A model team: the served model and its run folder.
struct ModelTeam {
    id: String,
    name: String,
    token: String,
    client: OpenAiClient,
    out: PathBuf,
}

/// For a server listening on every interface (`0.0.0.0` or `[::]`, which a browser
/// cannot open): the URL people on other machines open (this machine's host name) and the
/// one this machine opens (loopback). `None` for any other URL, which is opened as it is.
fn every_interface(url: &str) -> Option<(String, String)> {
    for (any, loopback) in [("://0.0.0.0:", "127.0.0.1"), ("://[::]:", "[::1]")] {
        if let Some(i) = url.find(any) {
            let (scheme, port) = (&url[..i], &url[i + any.len()..]);
            let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
                .map(|h| h.trim().to_owned())
                .ok()
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| "localhost".to_owned());
            return Some((
                format!("{scheme}://{host}:{port}"),
                format!("{scheme}://{loopback}:{port}"),
            ));
        }
    }
    None
}

fn token() -> String {
    format!(
        "{:016x}{:016x}",
        rand::random::<u64>(),
        rand::random::<u64>()
    )
}

/// The workspace's root as built (the bundled problems live there).
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The packages of the contest.
fn packages(args: &DemoArgs) -> anyhow::Result<Vec<PathBuf>> {
    let dirs: Vec<PathBuf> = match &args.problems {
        Some(folder) => {
            let mut dirs: Vec<PathBuf> = std::fs::read_dir(folder)
                .with_context(|| format!("--problems: cannot read {}", folder.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("problem.yaml").is_file())
                .collect();
            dirs.sort();
            if dirs.is_empty() {
                bail!(
                    "--problems {}: no problem packages (subfolders with a problem.yaml)",
                    folder.display()
                );
            }
            dirs
        }
        None => {
            let root = workspace();
            let dirs: Vec<PathBuf> = BUNDLED.iter().map(|p| root.join(p)).collect();
            if let Some(missing) = dirs.iter().find(|d| !d.join("problem.yaml").is_file()) {
                bail!(
                    "the bundled demo problem {} is missing (the agent was built from another \
                     checkout?): pass --problems DIR",
                    missing.display()
                );
            }
            dirs
        }
    };
    if dirs.len() > 26 {
        bail!(
            "at most 26 problems in a demo contest ({} given)",
            dirs.len()
        );
    }
    dirs.into_iter()
        .map(|d| {
            d.canonicalize()
                .with_context(|| format!("cannot resolve {}", d.display()))
        })
        .collect()
}

/// The model folder `--trained-checkpoint DIR` means: DIR itself when it holds a
/// `config.json`; in `ci/train`'s output, the checkpoint its `checkpoint` file names; in a
/// `trainer train` run folder, `best` when the run keeps one, else the checkpoint `latest`
/// names.
fn checkpoint_folder(dir: &Path) -> anyhow::Result<PathBuf> {
    let model = |d: &Path| d.join("config.json").is_file();
    if model(dir) {
        return Ok(dir.to_path_buf());
    }
    let named = |file: &str| -> Option<PathBuf> {
        let text = std::fs::read_to_string(dir.join(file)).ok()?;
        let name = text.lines().next()?.trim();
        (!name.is_empty()).then(|| dir.join(name))
    };
    let candidates = [named("checkpoint"), Some(dir.join("best")), named("latest")];
    if let Some(found) = candidates.into_iter().flatten().find(|d| model(d)) {
        eprintln!(
            "agent demo: --trained-checkpoint {} is a training run's folder: playing {}",
            dir.display(),
            found.display()
        );
        return Ok(found);
    }
    bail!(
        "--trained-checkpoint {}: not a Hugging Face model folder (no config.json), nor a \
         training run's folder (no `checkpoint` file, `best` folder or `latest` file naming a \
         model folder)",
        dir.display()
    )
}

fn docker_answers() -> bool {
    Command::new("docker")
        .args(["info", "--format", "{{.ServerVersion}}"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn problem_id(dir: &Path) -> String {
    dir.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("problem")
        .to_owned()
}

/// The demo's teams: the model team(s), the scripted stand-ins and the guest seats,
/// each with its token.
struct Roster {
    /// Every team as the contest and the report list them.
    infos: Vec<TeamInfo>,
    /// The model teams: (id, name, token).
    model_teams: Vec<(String, String, String)>,
    scripted_teams: Vec<ScriptTeam>,
    /// The guest seats: (id, token).
    guests: Vec<(String, String)>,
}

impl Roster {
    /// The token of team `id` (empty for an unknown team).
    fn token_of(&self, id: &str) -> String {
        self.model_teams
            .iter()
            .find(|t| t.0 == id)
            .map(|t| t.2.clone())
            .or_else(|| {
                self.scripted_teams
                    .iter()
                    .find(|t| t.id == id)
                    .map(|t| t.token.clone())
            })
            .or_else(|| self.guests.iter().find(|g| g.0 == id).map(|g| g.1.clone()))
            .unwrap_or_default()
    }
}

/// The teams of a demo whose model is served as `base_name`.
fn roster(args: &DemoArgs, base_name: &str) -> Roster {
    let mut infos = Vec::new();
    let mut model_teams = vec![("agent".to_owned(), format!("{base_name} (agent)"), token())];
    if args.trained_checkpoint.is_some() {
        model_teams.push((
            "agent-trained".to_owned(),
            format!("{base_name} trained (agent)"),
            token(),
        ));
    }
    for (id, name, _) in &model_teams {
        infos.push(TeamInfo {
            id: id.clone(),
            name: name.clone(),
            kind: Kind::Agent,
        });
    }
    let scripted_teams: Vec<ScriptTeam> =
        [("ada", 1.0, 0.8), ("brook", 0.67, 1.0), ("cyd", 0.34, 0.9)]
            .iter()
            .map(|(id, strength, pace)| ScriptTeam {
                id: format!("scripted-{id}"),
                token: token(),
                strength: *strength,
                pace: *pace,
            })
            .collect();
    for t in &scripted_teams {
        let name = t.id.trim_start_matches("scripted-");
        let mut chars = name.chars();
        let cap: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        infos.push(TeamInfo {
            id: t.id.clone(),
            name: format!("{cap} (scripted)"),
            kind: Kind::Scripted,
        });
    }
    let guests: Vec<(String, String)> = (1..=args.guests)
        .map(|i| (format!("guest-{i}"), token()))
        .collect();
    for (id, _) in &guests {
        infos.push(TeamInfo {
            id: id.clone(),
            name: format!("Guest {}", &id[6..]),
            kind: Kind::Guest,
        });
    }
    Roster {
        infos,
        model_teams,
        scripted_teams,
        guests,
    }
}

/// `contest.yaml`: the demo contest, starting a few seconds from now and lasting a
/// minute longer than the play, with the problems and every team.
fn contest_yaml(
    args: &DemoArgs,
    problems: &[(String, String, PathBuf)],
    roster: &Roster,
) -> anyhow::Result<String> {
    let minutes = args.duration.div_ceil(60) + 1;
    let start = chrono::Utc::now() + chrono::Duration::seconds(8);
    let mut yaml = format!(
        "id: demo\nname: Arena demo\nstart_time: {}\nduration: {minutes}\nscoring: icpc\n\
         penalty_minutes: 20\nsubmissions_per_minute: 30\nproblems:\n",
        start.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    );
    for (id, label, dir) in problems {
        yaml.push_str(&format!(
            "  - {{id: {id}, label: {label}, package: {}}}\n",
            serde_json::to_string(&dir.display().to_string())?
        ));
    }
    yaml.push_str("teams:\n");
    for info in &roster.infos {
        yaml.push_str(&format!(
            "  - {{id: {}, name: {}, token: {}}}\n",
            info.id,
            serde_json::to_string(&info.name)?,
            roster.token_of(&info.id)
        ));
    }
    Ok(yaml)
}

/// The servers started for the model teams (kept until the demo ends), and each model
/// team's (URL, name the model is served under).
type ModelServers = (Vec<procs::Server>, Vec<(String, String)>);

/// The model teams' servers: `--model-url`'s, or a `trainer serve` per model folder
/// (the bundled model, and the trained checkpoint's when given) started here; each with
/// the name its model is served under (`trainer serve` serves a folder under the
/// folder's name: `step-000040` for a checkpoint).
fn start_models(
    args: &DemoArgs,
    trainer_bin: Option<&PathBuf>,
    model_dir: Option<&PathBuf>,
    trained: Option<&PathBuf>,
    out: &Path,
    base_name: &str,
) -> anyhow::Result<ModelServers> {
    let mut model_servers = Vec::new();
    let mut model_urls = Vec::new();
    match (&args.model_url, trainer_bin, model_dir) {
        (Some(url), _, _) => model_urls.push((url.clone(), base_name.to_owned())),
        (None, Some(bin), Some(dir)) => {
            let mut folders = vec![("trainer serve (SmolLM2)", dir.clone(), "trainer.log")];
            if let Some(ckpt) = trained {
                folders.push((
                    "trainer serve (trained checkpoint)",
                    ckpt.clone(),
                    "trainer-trained.log",
                ));
            }
            for (what, folder, log) in folders {
                let mut cmd = Command::new(bin);
                cmd.args(["serve", "--listen", "127.0.0.1:0", "--model"])
                    .arg(&folder);
                let server = procs::start(cmd, what, &out.join(log), Duration::from_secs(600))?;
                let served = folder
                    .file_name()
                    .map_or_else(|| "model".to_owned(), |n| n.to_string_lossy().into_owned());
                model_urls.push((server.url.clone(), served));
                model_servers.push(server);
            }
        }
        _ => bail!("no model: pass --model-url and --model-name"),
    }
    Ok((model_servers, model_urls))
}

/// Starts `judge serve` on the demo contest (one worker, the demo's backend and
/// database), its log in the run folder.
fn start_judge(
    args: &DemoArgs,
    judge_bin: &Path,
    backend: BackendKind,
    contest_file: &Path,
    out: &Path,
    admin: &str,
) -> anyhow::Result<procs::Server> {
    let db = args
        .db
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", out.join("contest.db").display()));
    let mut cmd = Command::new(judge_bin);
    cmd.args(["serve", "--listen", &args.listen, "--workers", "1"])
        .args(["--backend", backend.name()])
        .arg("--contest")
        .arg(contest_file)
        .arg("--db")
        .arg(&db)
        .env("ARENA_ADMIN_TOKEN", admin);
    procs::start(
        cmd,
        "judge serve",
        &out.join("judge.log"),
        Duration::from_secs(120),
    )
}

/// Says where the contest is: its page on every interface and this machine, the API,
/// the guests' tokens and the admin's.
fn announce(url: &str, guests: &[(String, String)], admin: &str) {
    let (public, local) = every_interface(url).map_or((url.to_owned(), None), |(public, local)| {
        (public, Some(local))
    });
    println!("\nThe contest is live at {public}/contests/demo");
    if let Some(local) = local {
        println!("  (on this machine: {local}/contests/demo)");
    }
    println!("  (CLICS API: {public}/api/contests/demo)");
    for (id, tok) in guests {
        println!("  join as {id}: log in on the web page with token {tok}");
    }
    println!("  admin token: {admin}\n");
}

/// Runs the demo: checks and settings, the teams, the model servers, the contest file,
/// `judge serve`, then the live play ([`live`]) on a runtime of its own.
pub(crate) fn demo(args: &DemoArgs) -> anyhow::Result<()> {
    if args.duration < 20 {
        bail!("--duration {}: at least 20 seconds", args.duration);
    }
    if args.out.join("contest.yaml").exists() {
        bail!(
            "{} holds an earlier demo: pick another --out or remove it",
            args.out.display()
        );
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot make the run folder {}", args.out.display()))?;
    let out = args.out.canonicalize().context("the run folder")?;
    let judge_bin = procs::beside_agent("judge", "judge-cli")?;
    let trainer_bin = if args.model_url.is_none() {
        Some(procs::beside_agent("trainer", "trainer")?)
    } else {
        None
    };
    let model_dir = match (&args.model_url, &args.model_dir) {
        (Some(_), _) => None,
        (None, Some(dir)) => Some(dir.clone()),
        (None, None) => Some(judge::cache_dir().join("models").join(BUNDLED_MODEL)),
    };
    if let Some(dir) = &model_dir
        && !dir.join("config.json").is_file()
    {
        bail!(
            "the bundled model is not at {} (run `bash ci/setup`, or pass --model-dir, or \
             --model-url/--model-name for another server)",
            dir.display()
        );
    }
    let trained = args
        .trained_checkpoint
        .as_deref()
        .map(checkpoint_folder)
        .transpose()?;
    let backend = args.backend.unwrap_or_else(|| {
        if docker_answers() {
            BackendKind::Docker
        } else {
            BackendKind::Bwrap
        }
    });
    let dirs = packages(args)?;
    let problems: Vec<(String, String, PathBuf)> = dirs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let label = char::from(b'A' + u8::try_from(i).unwrap_or(0)).to_string();
            (problem_id(d), label, d.clone())
        })
        .collect();

    let base_name = args
        .model_name
        .clone()
        .unwrap_or_else(|| BUNDLED_MODEL.to_owned());
    let roster = roster(args, &base_name);

    eprintln!(
        "agent demo: {} problems, {} teams, {}s of play, sandbox {}; run folder {}",
        problems.len(),
        roster.infos.len(),
        args.duration,
        backend.name(),
        out.display()
    );
    let (model_servers, model_urls) = start_models(
        args,
        trainer_bin.as_ref(),
        model_dir.as_ref(),
        trained.as_ref(),
        &out,
        &base_name,
    )?;
    let yaml = contest_yaml(args, &problems, &roster)?;
    let contest_file = out.join("contest.yaml");
    std::fs::write(&contest_file, yaml).context("writing contest.yaml")?;

    let admin = token();
    let judge_server = start_judge(args, &judge_bin, backend, &contest_file, &out, &admin)?;
    announce(&judge_server.url, &roster.guests, &admin);

    let rt = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let mut teams = Vec::new();
    for ((id, name, tok), (url, served)) in roster.model_teams.iter().zip(&model_urls) {
        let config = ClientConfig {
            base_url: url.clone(),
            model: served.clone(),
            api_key_env: args.api_key_env.clone(),
            ..ClientConfig::default()
        };
        teams.push(ModelTeam {
            id: id.clone(),
            name: name.clone(),
            token: tok.clone(),
            client: OpenAiClient::new(config).context("model client")?,
            out: out.join(if id == "agent" {
                "agent-base"
            } else {
                "agent-trained"
            }),
        });
    }
    let script_problems: Vec<ScriptProblem> = problems
        .iter()
        .map(|(id, _, dir)| ScriptProblem {
            id: id.clone(),
            accepted: scripted::pick(dir, &["accepted"]),
            wrong: scripted::pick(dir, &["wrong_answer", "run_time_error", "compile_error"]),
        })
        .collect();
    let ctx = Live {
        args,
        server: judge_server.url.clone(),
        admin,
        backend,
        problems: problems
            .iter()
            .map(|p| (p.0.clone(), p.1.clone()))
            .collect(),
        infos: roster.infos.clone(),
        out: out.clone(),
    };
    let result = rt.block_on(live(&ctx, &teams, &roster.scripted_teams, script_problems));
    drop(model_servers);
    drop(judge_server);
    result
}

/// What the live part shares.
struct Live<'a> {
    args: &'a DemoArgs,
    server: String,
    admin: String,
    backend: BackendKind,
    /// (id, label) in contest order.
    problems: Vec<(String, String)>,
    infos: Vec<TeamInfo>,
    out: PathBuf,
}

/// The live part of the demo: the scripted teams and the model teams play while the
/// status line runs, then the last judgements settle and the report is written.
async fn live(
    ctx: &Live<'_>,
    teams: &[ModelTeam],
    scripted_teams: &[ScriptTeam],
    script_problems: Vec<ScriptProblem>,
) -> anyhow::Result<()> {
    let (admin, start_ms) = begin(ctx, teams).await?;
    let began = Instant::now();
    let seconds = ctx.args.duration as f64;
    // Contest seconds already gone when the play begins (a slow start-up): the board's
    // plot spans them too.
    let lead = (chrono::Utc::now().timestamp_millis() - start_ms).max(0) as f64 / 1000.0;

    let sandbox = SandboxConfig::discover().context("sandbox")?;
    let bench = Workbench::new(sandbox, ctx.backend, None).context("sandbox workbench")?;
    let runner = WorkbenchRunner::new(Arc::new(bench));
    let mut pipeline = Pipeline::named(&ctx.args.pipeline).context("--pipeline")?;
    pipeline.sampling.max_tokens = ctx.args.max_tokens;
    if pipeline.language.is_none() {
        pipeline.language = Some("python3".to_owned());
    }

    let plan = scripted::schedule(&script_problems, scripted_teams, seconds, ctx.args.seed);
    let planned = plan.len();
    let script = scripted::run(&ctx.server, "demo", scripted_teams, plan, began);

    let plays = futures_util::future::join_all(teams.iter().map(|team| {
        let (config, manifest) = play_config(ctx, team, &pipeline);
        let runner = &runner;
        async move {
            let summary = agent::play::play(&team.client, runner, &config, manifest).await;
            (team, summary)
        }
    }));

    let status = status_line(&admin, began, seconds, teams);
    let (sent, results, ()) = tokio::join!(script, plays, status);
    eprintln!();
    settle(&admin).await;
    report(ctx, &admin, &results, (sent, planned), seconds + lead).await
}

/// The admin's client, once every model server answers its health check and the
/// contest has started (waiting for it); and the contest's start in Unix milliseconds.
async fn begin(ctx: &Live<'_>, teams: &[ModelTeam]) -> anyhow::Result<(ContestClient, i64)> {
    let admin = ContestClient::new(&ctx.server, "demo", &ctx.admin, Duration::from_secs(30))
        .context("contest client")?;
    for team in teams {
        team.client.check().await.with_context(|| {
            format!(
                "the model server {} does not answer its health check",
                team.client.endpoint()
            )
        })?;
    }
    let contest = admin.contest().await.context("reading the demo contest")?;
    let start_ms = contest.start_time.map(|t| t.unix_millis()).unwrap_or(0);
    let now_ms = chrono::Utc::now().timestamp_millis();
    if start_ms > now_ms {
        let wait = Duration::from_millis(u64::try_from(start_ms - now_ms).unwrap_or(0));
        eprintln!("  the contest starts in {:.0}s", wait.as_secs_f64());
        tokio::time::sleep(wait).await;
    }
    Ok((admin, start_ms))
}

/// A model team's play: its settings (the demo's time split into visits) and its run
/// folder's manifest.
fn play_config(ctx: &Live<'_>, team: &ModelTeam, pipeline: &Pipeline) -> (PlayConfig, Manifest) {
    let config = PlayConfig {
        server: ctx.server.clone(),
        contest: "demo".to_owned(),
        token: team.token.clone(),
        out: team.out.clone(),
        pipeline: pipeline.clone(),
        budget: Budget {
            wall_seconds: Some(ctx.args.duration),
            ..Budget::default()
        },
        duration: Some(Duration::from_secs(ctx.args.duration)),
        time: TimeConfig {
            min_visit: Duration::from_secs(20.min(ctx.args.duration / 2)),
            max_visit: Duration::from_secs((ctx.args.duration / 2).max(30)),
            rejections_per_visit: 2,
        },
        poll: Duration::from_millis(500),
        judgement_patience: Duration::from_secs(300),
        memory_mib: 1024,
        seed: ctx.args.seed,
        request_timeout: Duration::from_secs(30),
    };
    let manifest = Manifest {
        format: FORMAT,
        run: format!(
            "demo-{}-{}",
            team.id,
            chrono::Utc::now().format("%Y%m%dT%H%M%SZ")
        ),
        created: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        version: crate::version(),
        model: ModelInfo {
            name: team.client.name().to_owned(),
            endpoint: team.client.endpoint(),
            client: json!({"base_url": team.client.endpoint()}),
        },
        seed: ctx.args.seed,
        pipeline: pipeline.clone(),
        run_budget: config.budget.clone(),
        backend: ctx.backend.name().to_owned(),
        concurrency: 1,
        problems: Vec::new(),
    };
    (config, manifest)
}

/// Waits (up to a minute) until every submission has a judgement that counts.
async fn settle(admin: &ContestClient) {
    let settle = Instant::now();
    loop {
        let subs = admin.submissions().await.unwrap_or_default();
        let judged = admin.judgements().await.unwrap_or_default();
        let counting = leaderboard::clics::counting_judgements(&judged);
        let pending = subs
            .iter()
            .filter(|s| !counting.contains_key(s.id.as_str()))
            .count();
        if pending == 0 || settle.elapsed() > Duration::from_secs(60) {
            break;
        }
        eprint!("\r  waiting for {pending} judgement(s)...   ");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    eprintln!();
}

/// The final standings and each agent's line on stdout, and `report.json`, `board.svg`
/// and `report.md` in the run folder; `Err` when an agent could not play.
/// `scripted` is the scripted submissions (sent, planned); `span` the seconds the board's
/// plot spans.
async fn report(
    ctx: &Live<'_>,
    admin: &ContestClient,
    results: &[(&ModelTeam, Result<PlaySummary, agent::play::PlayError>)],
    (sent, planned): (usize, usize),
    span: f64,
) -> anyhow::Result<()> {
    let board = admin.scoreboard().await.context("the final scoreboard")?;
    let submissions = admin.submissions().await.context("the submissions")?;
    let judgements = admin.judgements().await.context("the judgements")?;
    let ids: Vec<String> = ctx.problems.iter().map(|p| p.0.clone()).collect();
    let labels: Vec<String> = ctx.problems.iter().map(|p| p.1.clone()).collect();
    let rows = board::standings(&board, &ctx.infos, &ids);
    let history = board::history(&ctx.infos, &submissions, &judgements);
    let table = board::table(&rows, &labels);
    println!(
        "Final standings ({} s of play):\n\n{table}",
        ctx.args.duration
    );

    let mut agents = Vec::new();
    let mut failures = Vec::new();
    for (team, result) in results {
        let row = rows.iter().find(|r| r.team == team.id);
        let summary: Option<&PlaySummary> = result.as_ref().ok();
        if let Err(err) = result {
            failures.push(format!("{}: {err}", team.name));
        }
        let trajectories = team.out.join("trajectories");
        let line = format!(
            "{}: rank {} of {}, solved {} ({}); {} submission(s), {} visit(s); stopped: {}; \
             trajectories in {}",
            team.name,
            row.map_or(0, |r| r.rank),
            rows.len(),
            row.map_or(0, |r| r.solved),
            summary.map(|s| s.solved().join(", ")).unwrap_or_default(),
            summary.map_or(0, |s| s.submissions),
            summary.map_or(0, |s| s.visits),
            summary
                .and_then(|s| serde_json::to_value(&s.reason).ok())
                .and_then(|v| v["kind"].as_str().map(str::to_owned))
                .unwrap_or_else(|| "error".to_owned()),
            trajectories.display()
        );
        println!("{line}");
        agents.push(json!({
            "team": team.id,
            "name": team.name,
            "model": team.client.name(),
            "endpoint": team.client.endpoint(),
            "rank": row.map(|r| r.rank),
            "of": rows.len(),
            "solved": row.map(|r| r.solved),
            "penalty": row.map(|r| r.penalty),
            "solved_problems": summary.map(PlaySummary::solved),
            "submissions": summary.map(|s| s.submissions),
            "visits": summary.map(|s| s.visits),
            "stop": summary.map(|s| &s.reason),
            "error": result.as_ref().err().map(ToString::to_string),
            "run_folder": team.out,
            "trajectories": trajectories,
        }));
    }

    let report = json!({
        "contest": "demo",
        "server": ctx.server,
        "duration_seconds": ctx.args.duration,
        "backend": ctx.backend.name(),
        "problems": ctx.problems.iter().map(|(id, label)| json!({"id": id, "label": label})).collect::<Vec<_>>(),
        "teams": ctx.infos,
        "scripted_submissions": {"planned": planned, "sent": sent},
        "standings": rows,
        "agents": agents,
        "history": history,
    });
    std::fs::write(
        ctx.out.join("report.json"),
        serde_json::to_string_pretty(&report)? + "\n",
    )
    .context("writing report.json")?;
    std::fs::write(
        ctx.out.join("board.svg"),
        board::svg(&history, &ctx.infos, span, ctx.problems.len()),
    )
    .context("writing board.svg")?;
    let mut md = format!(
        "# Arena demo\n\n{} problems ({}), {} teams, {} s of play, sandbox {}.\n\n\
         ## Final standings\n\n```\n{table}```\n\n`+N`: solved after N rejections; `-N`: N \
         rejections; `.`: not tried. Scripted teams submit the packages' reference and wrong \
         solutions at set times ({sent} of {planned} planned submissions sent).\n\n\
         ## The board over time\n\n![board](board.svg)\n\n## Agents\n\n",
        ctx.problems.len(),
        labels.join(" "),
        ctx.infos.len(),
        ctx.args.duration,
        ctx.backend.name()
    );
    for a in &agents {
        md.push_str(&format!(
            "- **{}** (`{}`): rank {} of {}, {} solved, {} submission(s), {} visit(s); \
             trajectories: `{}` (`agent report {}`)\n",
            a["name"].as_str().unwrap_or_default(),
            a["model"].as_str().unwrap_or_default(),
            a["rank"],
            a["of"],
            a["solved"],
            a["submissions"],
            a["visits"],
            a["trajectories"].as_str().unwrap_or_default(),
            a["run_folder"].as_str().unwrap_or_default(),
        ));
    }
    std::fs::write(ctx.out.join("report.md"), md).context("writing report.md")?;
    println!(
        "\nReport: {} (and report.json, board.svg)",
        ctx.out.join("report.md").display()
    );
    if !failures.is_empty() {
        bail!("the agent could not play: {}", failures.join("; "));
    }
    Ok(())
}

/// A live status line on stderr every two seconds until the play's time is over: the
/// time, each agent's place and solves, and the judging queue.
async fn status_line(admin: &ContestClient, began: Instant, seconds: f64, teams: &[ModelTeam]) {
    loop {
        let elapsed = began.elapsed().as_secs_f64();
        if elapsed >= seconds {
            break;
        }
        let clock = format!(
            "[{:02}:{:02}/{:02}:{:02}]",
            (elapsed as u64) / 60,
            (elapsed as u64) % 60,
            (seconds as u64) / 60,
            (seconds as u64) % 60
        );
        // The line's fields, shown with ` | ` between them.
        let mut fields = Vec::new();
        if let Ok(board) = admin.scoreboard().await {
            for team in teams {
                let mut field = String::new();
                if let Some(row) = board.rows.iter().find(|r| r.team_id == team.id) {
                    let solved = match row.score {
                        leaderboard::clics::RowScore::PassFail { num_solved, .. } => num_solved,
                        leaderboard::clics::RowScore::Score { score, .. } => score as u32,
                    };
                    field.push_str(&format!(
                        "{}: rank {}/{} solved {}",
                        team.id,
                        row.rank,
                        board.rows.len(),
                        solved
                    ));
                }
                let visiting = agent::play::read_log(&team.out).ok().and_then(|events| {
                    events.iter().rev().find_map(|e| match e {
                        agent::play::PlayEvent::Visit { problem, .. } => Some(problem.clone()),
                        _ => None,
                    })
                });
                if let Some(p) = visiting {
                    field.push_str(&format!(" (on {p})"));
                }
                if !field.is_empty() {
                    fields.push(field);
                }
            }
            if let Some(first) = board.rows.first()
                && matches!(first.score, leaderboard::clics::RowScore::PassFail { num_solved, .. } if num_solved > 0)
            {
                fields.push(format!("leader {}", first.team_id));
            }
        }
        if let (Ok(subs), Ok(judged)) = (admin.submissions().await, admin.judgements().await) {
            let counting = leaderboard::clics::counting_judgements(&judged);
            let pending = subs
                .iter()
                .filter(|s| !counting.contains_key(s.id.as_str()))
                .count();
            fields.push(format!("{} submissions, {pending} judging", subs.len()));
        }
        let line = format!("{clock} {}", fields.join(" | "));
        eprint!("\r{line:<110}");
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model_folder(dir: &Path) {
        std::fs::create_dir_all(dir).expect("mkdir");
        std::fs::write(dir.join("config.json"), "{}").expect("config.json");
    }

    #[test]
    fn a_server_on_every_interface_is_announced_by_host_name() {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").expect("hostname");
        let host = host.trim();
        assert_eq!(
            every_interface("http://0.0.0.0:8080"),
            Some((
                format!("http://{host}:8080"),
                "http://127.0.0.1:8080".to_owned()
            ))
        );
        assert_eq!(
            every_interface("http://[::]:9000"),
            Some((
                format!("http://{host}:9000"),
                "http://[::1]:9000".to_owned()
            ))
        );
        // An address a browser can open stays as it is.
        assert_eq!(every_interface("http://127.0.0.1:8080"), None);
        assert_eq!(every_interface("http://10.0.0.5:80"), None);
    }

    #[test]
    fn a_trained_checkpoint_is_a_model_folder_or_named_by_a_training_run() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        // A model folder as it is.
        let step = root.join("run/checkpoints/step-000002");
        model_folder(&step);
        assert_eq!(checkpoint_folder(&step).expect("a model"), step);
        // trainer train's run folder: `latest` names the newest checkpoint...
        let run = root.join("run");
        std::fs::write(run.join("latest"), "checkpoints/step-000002\n").expect("latest");
        assert_eq!(checkpoint_folder(&run).expect("latest"), step);
        // ...and `best`, when the run keeps one, comes first.
        model_folder(&run.join("best"));
        assert_eq!(checkpoint_folder(&run).expect("best"), run.join("best"));
        // ci/train's output: the `checkpoint` file names the evaluated one.
        std::fs::write(root.join("checkpoint"), "run/checkpoints/step-000002\n")
            .expect("checkpoint");
        assert_eq!(checkpoint_folder(root).expect("ci/train"), step);
        // Anything else is said, naming the folder.
        let empty = root.join("empty");
        std::fs::create_dir_all(&empty).expect("mkdir");
        let err = checkpoint_folder(&empty).expect_err("no model");
        assert!(
            err.to_string().contains(&format!(
                "--trained-checkpoint {}: not a Hugging Face",
                empty.display()
            )),
            "{err}"
        );
        // A `latest` naming a folder that is gone is no model either.
        std::fs::write(empty.join("latest"), "checkpoints/step-000009\n").expect("latest");
        assert!(checkpoint_folder(&empty).is_err());
    }
}
