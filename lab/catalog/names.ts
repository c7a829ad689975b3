// Naming rules shared by the schemas. No zod here: the site bundles this file.
export const STAGE_ID = /^stage-(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$/;
export const MODULE_NAME = /^[a-z][a-z0-9-]*$/;
