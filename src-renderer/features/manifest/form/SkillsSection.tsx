import { useForm } from './FormContext';
import { Section, TextArea, TextField } from './fields';
import { listAt, moveAt, pushAt, removeAt } from './formDoc';
import { TagsField } from './TagsField';

const SKILLS = ['skills'];
/** Skills drawn at most; the rest stay in the YAML and are counted. */
const MAX_SKILLS = 50;

/** The skills published on the agent card: id, name, description, tags, examples. */
export function SkillsSection() {
  const { data, write } = useForm();
  const skills = listAt(data, SKILLS);
  const add = () => {
    const n = skills.length + 1;
    write('skills+', pushAt(SKILLS, { id: `skill-${n}`, name: `Skill ${n}`, description: '' }));
  };
  return (
    <Section
      title="Skills"
      note={skills.length === 0 ? 'No skills yet: the agent card lists what this capsule can do.' : undefined}
      actions={
        <button type="button" className="btn btn-small" onClick={add}>
          Add skill
        </button>
      }
    >
      {skills.slice(0, MAX_SKILLS).map((_, i) => (
        <div key={i} className="form-card field-wide" role="group" aria-label={`Skill ${i + 1}`}>
          <div className="form-card-head">
            <span className="form-card-title">Skill {i + 1}</span>
            <span className="form-card-actions">
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Move skill ${i + 1} up`}
                disabled={i === 0}
                onClick={() => write('skills~', moveAt(SKILLS, i, i - 1))}
              >
                ↑
              </button>
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Remove skill ${i + 1}`}
                onClick={() => write('skills-', removeAt(SKILLS, i))}
              >
                Remove
              </button>
            </span>
          </div>
          <div className="form-grid">
            <TextField label="Id" name={`Skill ${i + 1} id`} path={[...SKILLS, i, 'id']} />
            <TextField label="Name" name={`Skill ${i + 1} name`} path={[...SKILLS, i, 'name']} />
            <TextArea
              label="Description"
              name={`Skill ${i + 1} description`}
              path={[...SKILLS, i, 'description']}
              rows={2}
            />
            <TagsField label="Tags" name={`Skill ${i + 1} tags`} path={[...SKILLS, i, 'tags']} />
            <TagsField
              label="Examples"
              name={`Skill ${i + 1} examples`}
              path={[...SKILLS, i, 'examples']}
              separator=";"
            />
          </div>
        </div>
      ))}
      {skills.length > MAX_SKILLS ? (
        <p className="field-hint field-wide">{skills.length - MAX_SKILLS} more skills are in the YAML view.</p>
      ) : null}
    </Section>
  );
}
