//! The code stage: the program asked for (once more when a reply has no code), compiled,
//! and kept as the candidate with what its compilation said.

use super::*;

impl State<'_, '_> {
    /// The `code` stage.
    pub(super) async fn code(&mut self) -> Flow<()> {
        let mut ask = prompt::code(self.language.as_deref());
        for round in 0..2 {
            let mut p = Pending::new(Stage::Code, "ask");
            let mut messages = self.base.clone();
            messages.push(Message::user(ask.clone()));
            let wanted = self.language.clone();
            let flow = self.ask_program(&mut p, messages, wanted.as_deref()).await;
            let program = match flow {
                Ok(program) => program,
                Err(end) => return self.finish(p, Err(end)),
            };
            match program {
                Some(program) => {
                    let flow = self.compile(&mut p, &program).await;
                    let (ok, log) = match flow {
                        Ok(v) => v,
                        Err(end) => return self.finish(p, Err(end)),
                    };
                    self.language = Some(program.language.clone());
                    self.candidate.program = Some(program);
                    self.candidate.checked = false;
                    self.candidate.results = None;
                    self.candidate.failure = (!ok).then_some(Failure::Compile { log });
                    return self.record(p);
                }
                None => {
                    let reason = match &p.extraction {
                        Some(Extraction::NoCode { reason, .. }) => reason.clone(),
                        _ => String::new(),
                    };
                    if round == 0 {
                        p.note.push_str("; asking once more");
                    }
                    self.record(p)?;
                    ask = prompt::no_code(&reason, self.language.as_deref());
                }
            }
        }
        Ok(())
    }
}
