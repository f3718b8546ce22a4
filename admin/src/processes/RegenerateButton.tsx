import { Button } from '@mui/material';

/**
 * regenerateTurn (issue 8): the last turn's reply is taken back and its input runs again. The page's
 * action wrapper reports errors (NOT_FOUND without a turn, TURN_NOT_REGENERABLE while one runs).
 */
export const RegenerateButton = ({ onRegenerate, disabled }: { onRegenerate: () => void; disabled?: boolean }) => (
  <Button variant="outlined" size="small" onClick={onRegenerate} disabled={disabled} data-testid="regenerate-turn"
    title="Take the last turn's reply back and run its input again">
    Regenerate last turn
  </Button>
);
