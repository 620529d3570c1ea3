import { Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useKeywordFiltering } from '../hooks/use-leads';

/** Text of spec section 8. */
export const KEYWORD_FILTERING_ERROR = 'Failed to update keyword filtering setting';

interface TKeywordFilteringSwitchProps {
  projectId: string;
  readOnly: boolean;
  withoutKeywords: boolean;
}

/** On: only items matching the approved keywords are leads. Off (without_keywords): every item of the subreddits. */
export function KeywordFilteringSwitch({
  projectId,
  readOnly,
  withoutKeywords,
}: TKeywordFilteringSwitchProps) {
  const update = useKeywordFiltering(projectId);
  const checked = update.isPending ? !update.variables : !withoutKeywords;
  return (
    <Switch
      label="Keyword filtering"
      description={
        checked
          ? 'Only posts and comments that match your approved keywords are leads.'
          : 'Every post and comment in your approved subreddits is a lead.'
      }
      checked={checked}
      disabled={readOnly || update.isPending}
      onChange={(e) =>
        update.mutate(!e.currentTarget.checked, {
          onError: () => notifications.show({ color: 'red', message: KEYWORD_FILTERING_ERROR }),
        })
      }
    />
  );
}
