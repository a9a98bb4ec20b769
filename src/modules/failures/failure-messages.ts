// The words of failure_options' reasons, English and German (docs/api-guide.md "Failed stops"): translations, kept
// apart from the rule in failure-options.ts, which imports types only (decision 0216); read at start-up with every
// other catalog (src/messages.ts, decision 0210).
import { t, type Lang, type Messages } from '../../http/i18n.ts';
import type { FailureBlocker } from './failure-options.ts';

export const messages: Messages = {
  'failure_options.not_permitted': {
    en: 'Only administrators, managers who see the tour and the tour’s driver can fail stops.',
    de: 'Nur Administratoren, Manager, die die Tour sehen, und der Fahrer der Tour können Stopps fehlschlagen lassen.',
  },
  'failure_options.outcome_disabled': {
    en: 'The service does not offer this outcome to your role.',
    de: 'Der Service bietet dieses Ergebnis Ihrer Rolle nicht an.',
  },
  'failure_options.stop_not_on_tour': {
    en: 'Only stops on a tour can be failed.',
    de: 'Nur Stopps auf einer Tour können fehlschlagen.',
  },
  'failure_options.stop_not_in_progress': {
    en: 'Only a stop that is approaching or arrived can be failed.',
    de: 'Nur ein Stopp, der angefahren wird oder erreicht ist, kann fehlschlagen.',
  },
  'failure_options.tour_not_active': {
    en: 'The tour is no longer under way.',
    de: 'Die Tour ist nicht mehr unterwegs.',
  },
  'failure_options.return_stop_type_invalid': {
    en: 'The service has no valid return stop type.',
    de: 'Der Service hat keinen gültigen Rückgabe-Stopptyp.',
  },
  'failure_options.booking_not_returnable': {
    en: 'A return needs a pickup-then-drop-off booking and a failing drop-off.',
    de: 'Eine Rückgabe erfordert eine Buchung aus Abholung und Zustellungen und einen fehlgeschlagenen Zustellstopp.',
  },
  'failure_options.stop_without_booking': {
    en: 'A stop without a booking cannot be attempted again.',
    de: 'Ein Stopp ohne Buchung kann nicht erneut angefahren werden.',
  },
  'failure_options.booking_stop_limit_reached': {
    en: 'The booking has reached its stop limit.',
    de: 'Die Buchung hat ihre Höchstzahl an Stopps erreicht.',
  },
  'failure_options.tour_stop_limit_reached': {
    en: 'The tour has reached its stop limit.',
    de: 'Die Tour hat ihre Höchstzahl an Stopps erreicht.',
  },
};

export const blockerMessage = (blocker: FailureBlocker, lang: Lang): string => t(lang, `failure_options.${blocker}`);
