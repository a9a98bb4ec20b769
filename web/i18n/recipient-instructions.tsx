// The recipient's instructions for the driver (decision 1788) in words, where the driver app and the console show
// them on a stop: "Give it to a neighbour: Mme Rossi, 2nd floor · Code 4711".
import type { Schemas } from '../../clients/typescript/src/index.ts';
import { defineMessages, useT } from './index.tsx';

type Instructions = NonNullable<Schemas['Stop']['recipient_instructions']>;

const labels = defineMessages({
  en: {
    title: "Recipient's instructions",
    none: 'No instruction: keep it and try again',
    leave_at_door: 'Leave it at the door',
    neighbour: 'Give it to a neighbour',
  },
  de: {
    title: 'Hinweise des Empfängers',
    none: 'Kein Hinweis: mitnehmen und erneut versuchen',
    leave_at_door: 'Vor der Tür abstellen',
    neighbour: 'Bei einem Nachbarn abgeben',
  },
});

/** The title and the words of a stop's instructions. */
export function useInstructionsText(): { title: string; text: (instructions: Instructions) => string } {
  const t = useT(labels);
  return {
    title: t('title'),
    text: (i) => {
      const kind = i.neighbour ? `${t(i.kind)}: ${i.neighbour}` : t(i.kind);
      return i.note ? `${kind} · ${i.note}` : kind;
    },
  };
}
