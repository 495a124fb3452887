import * as v from "valibot";

/**
 * A language as providers name it: a BCP 47-style code such as 'en', 'de', 'pt-BR' or 'zh-Hans'.
 * Checked by shape only (the provider's list decides what it can translate), bounded at 35
 * characters, the longest tag BCP 47 asks implementations to keep.
 */
export const LANGUAGE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
export const LANGUAGE_CODE_MAX = 35;
export const INVALID_LANGUAGE = "Enter a language code such as en, de or zh-Hans";

export const LanguageCode = v.pipe(v.string(INVALID_LANGUAGE), v.trim(), v.maxLength(LANGUAGE_CODE_MAX, INVALID_LANGUAGE), v.regex(LANGUAGE_CODE, INVALID_LANGUAGE));
