import "./tools.generated";
import { z } from "zod";
import { Agent, type ChatGenerator, DeferredConfirmationStrategy, type StateSchema } from "toolwright";
import { LibraryTools, PublishingTools, researchState, Source } from "./teamTools";

/** The coordinator's state: who the article is for, and the sources the research agent found. */
export const teamState = {
  audience: { type: z.enum(["homeowners", "engineers"]) },
  sources: { type: z.array(Source) },
} satisfies StateSchema;

/** The coordinator's typed final answer: `result.output`. */
export const Report = z.object({
  title: z.string().describe("The published article's title."),
  summary: z.string().describe("Two sentences for the reader."),
  published: z.boolean(),
});

/** The models of the three agents. */
export interface TeamModels {
  readonly coordinator: ChatGenerator;
  readonly researcher: ChatGenerator;
  readonly writer: ChatGenerator;
}

/**
 * A coordinator that delegates to a research agent and a writer agent (each an Agent used as a
 * tool) and answers with a typed report. The writer's `publish` waits for a person: the whole run
 * pauses with one snapshot, which any process with the same agents can resume.
 */
export function teamAgent(models: TeamModels) {
  const researcher = new Agent({
    name: "researcher",
    chatGenerator: models.researcher,
    tools: [new LibraryTools()],
    stateSchema: researchState,
    // The prompt says who the findings are for: a function of the run's typed state.
    systemPrompt: ({ audience }) => `You research facts for ${audience ?? "a general audience"}. Search, then answer with your findings as JSON.`,
    outputSchema: z.object({ findings: z.array(z.string()), sourceCount: z.number().int() }),
  });
  const writer = new Agent({
    name: "writer",
    chatGenerator: models.writer,
    tools: [new PublishingTools()],
    systemPrompt: "You write short, plain articles, publish them, and answer with the article as JSON.",
    outputSchema: z.object({ title: z.string(), body: z.string() }),
    confirmationStrategies: { publish: new DeferredConfirmationStrategy() },
  });
  return new Agent({
    name: "coordinator",
    chatGenerator: models.coordinator,
    tools: [
      researcher.asTool({ name: "research", description: "Finds facts and sources on a topic.", inputsFromState: { audience: "audience" }, outputsToState: { sources: { source: "sources" } } }),
      writer.asTool({ name: "write", description: "Writes and publishes an article from findings." }),
    ],
    stateSchema: teamState,
    systemPrompt: ({ audience }) => `You lead a small team writing for ${audience}. Delegate research, then writing, then report.`,
    outputSchema: Report,
    maxAgentSteps: 6,
  });
}
