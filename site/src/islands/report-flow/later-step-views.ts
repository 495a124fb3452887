import { LanguageMenu } from '../language-menu';
import { AttachFilesStep } from './attach-files-step';
import { FinishStep } from './finish-step';
import type { LaterSteps } from './later-steps';
import { PageStep } from './page-step';
import { ReviewStep } from './review-step';

/** The steps after Welcome, fetched as one (later-steps.ts), with the language menu (on screen from the first step). */
export const LATER_STEPS: LaterSteps = { PageStep, AttachFilesStep, ReviewStep, FinishStep, LanguageMenu };
