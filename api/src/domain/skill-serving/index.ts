export { agentSkillView, VANCE_METADATA_PREFIX, type AgentSkillFrontmatter, type AgentSkillView } from './agent-skill-frontmatter';
export { serveSkill, type ServedFile, type ServedSkill, type SkillFolderFile } from './served-skill';
export { MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL, SkillPublisher, type SkillPublisherOptions } from './skill-publisher';
