"""A TRL reward function backed by `judge sandbox` (the README's "Rewards for your RL
trainer" shows it; tests/tests/reward_clients.rs trains with it).

    from trl import GRPOConfig, GRPOTrainer
    from trl_reward import judge_reward     # JUDGE_URL=http://HOST:PORT
    trainer = GRPOTrainer(model=..., reward_funcs=judge_reward, train_dataset=dataset, ...)

The dataset has a `problem` column naming a problem of the packages the server was
started with (`judge sandbox --problems DIR`). Each completion's last fenced code block
is judged against all of that problem's tests with the package's own checker, in one
`POST /v1/evaluate` per problem (each distinct program compiled once); the reward is the
fraction of tests passed. A failure of the service itself (no answer, an HTTP error, a
judge error) gives None, so that TRL leaves the sample out instead of scoring it 0.
"""

import asyncio
import json
import os
import re
import urllib.error
import urllib.request

JUDGE_URL = os.environ.get("JUDGE_URL", "http://127.0.0.1:8080")
FENCE = re.compile(r"```([A-Za-z0-9+#]*)[^\n]*\n(.*?)```", re.S)
LANGUAGES = {"": "python", "py": "python", "python": "python", "python3": "python",
             "cpp": "cpp", "c++": "cpp", "java": "java", "c": "c"}


def extract(completion):
    """(language, source) of a completion's last fenced block; the whole text as Python
    when there is no fence. A completion may be text or a list of chat messages."""
    text = completion[-1]["content"] if isinstance(completion, list) else completion
    blocks = FENCE.findall(text)
    if not blocks:
        return "python", text
    tag, source = blocks[-1]
    return LANGUAGES.get(tag.lower(), "python"), source


def _post(url, body, timeout):
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.load(resp)


async def _judge(problem, programs):
    body = {"problem": problem, "programs": programs}
    try:
        answer = await asyncio.to_thread(_post, JUDGE_URL.rstrip("/") + "/v1/evaluate", body, 600)
    except (OSError, ValueError):  # refused, timed out, HTTP 4xx/5xx, not JSON
        return [None] * len(programs)
    return [None if r["status"] == "judge_error" else r["scores"]["fraction"] for r in answer["results"]]


async def judge_reward(prompts, completions, problem, **kwargs):
    """One reward per completion: the fraction of `problem`'s tests passed, or None. The
    completions of one problem (a GRPO group) go in one request."""
    groups = {}
    for i, (name, completion) in enumerate(zip(problem, completions)):
        language, source = extract(completion)
        groups.setdefault(name, []).append((i, {"language": language, "source": source}))
    answers = await asyncio.gather(*(_judge(name, [p for _, p in items]) for name, items in groups.items()))
    rewards = [None] * len(completions)
    for items, scores in zip(groups.values(), answers):
        for (i, _), score in zip(items, scores):
            rewards[i] = score
    return rewards
