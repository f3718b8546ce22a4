/**
 * What the next turn would activate (issue 8), from composeTurnPreview: every candidate skill's
 * verdict, the token split of the context window with the budget sentence, and open_skill's
 * catalog summary. The page reloads it after each finished turn and after activate/clear.
 */
import { Alert, Card, CardContent, Typography } from '@mui/material';
import { messageOf } from '../api/graphql';
import type { TurnActivation } from '../api/types';
import type { Async } from '../common/useAsync';
import { TokenSplitBar } from './TokenSplitBar';
import { VerdictTable } from './VerdictTable';

export function ActivationPanel({ activation }: { activation: Async<TurnActivation> }) {
  const a = activation.data;
  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid="activation">
      <CardContent>
        <Typography variant="subtitle1">Activation (next turn)</Typography>
        {activation.error ? <Alert severity="error">{messageOf(activation.error)}</Alert> : null}
        {a ? (
          <>
            <TokenSplitBar tokens={a.tokens} />
            <Typography variant="body2" data-testid="budget">
              {a.budget}{a.droppedHistory > 0 ? ` (${a.droppedHistory} history message${a.droppedHistory === 1 ? '' : 's'} left out)` : ''}
            </Typography>
            {a.catalog ? (
              <Typography variant="body2" data-testid="catalog" title={a.catalog.cuts.map((c) => `${c.skill}: ${c.cut}`).join('\n')}>
                {a.catalog.summary}
              </Typography>
            ) : null}
            <VerdictTable verdicts={a.verdicts} />
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
