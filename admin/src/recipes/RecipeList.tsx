/** Recipes: the effective list (recipe_list) and the user-facing picker preview (categories, order). */
import { Box, Card, CardContent, Chip, Grid, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { Link } from 'react-router-dom';
import { messageOf } from '../api/graphql';
import type { ListedRecipes } from '../api/types';
import { Tags } from '../common/Chips';
import { useAsync } from '../common/useAsync';

/** seed 004 §6e: exact UI locale → base language → en → humanized id. */
export function categoryTitle(id: string, title: Record<string, string> | null | undefined): string {
  const lang = navigator.language || 'en';
  const pick = title?.[lang] ?? title?.[lang.split('-')[0] ?? 'en'] ?? title?.en;
  return pick ?? id.split(/[-_]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

function groups(listed: ListedRecipes): { key: string; label: string; recipes: ListedRecipes['recipes'] }[] {
  const out: { key: string; label: string; recipes: ListedRecipes['recipes'] }[] = [];
  for (const r of listed.recipes) {
    const key = r.category ?? '';
    let g = out.find((x) => x.key === key);
    if (!g) {
      const cat = listed.categories.find((c) => c.id === key);
      g = { key, label: key ? categoryTitle(key, cat?.title) : 'Other', recipes: [] };
      out.push(g);
    }
    g.recipes.push(r);
  }
  return out;
}

export function RecipeList() {
  const recipes = useAsync((dp) => dp.recipes(), []);
  const listed = useAsync((dp) => dp.listedRecipes(), []);
  return (
    <Box sx={{ p: 2 }}>
      <Title title="Recipes" />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 8 }}>
          {recipes.error ? <Typography color="error">{messageOf(recipes.error)}</Typography> : null}
          <Table size="small" data-testid="recipe-table">
            <TableHead><TableRow><TableCell>Name</TableCell><TableCell>Source</TableCell><TableCell>Engine</TableCell><TableCell>Locked</TableCell><TableCell>Tags</TableCell><TableCell>Description</TableCell></TableRow></TableHead>
            <TableBody>
              {(recipes.data ?? []).map((r) => (
                <TableRow key={r.name} hover>
                  <TableCell><Link to={`/recipes/${encodeURIComponent(r.name)}`}>{r.name}</Link></TableCell>
                  <TableCell><Chip size="small" variant="outlined" label={r.source} /></TableCell>
                  <TableCell>{r.engine}</TableCell>
                  <TableCell>{r.locked ? 'locked' : ''}</TableCell>
                  <TableCell><Tags items={r.tags} /></TableCell>
                  <TableCell>{r.description}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <Card variant="outlined" data-testid="picker-preview">
            <CardContent>
              <Typography variant="subtitle1">Picker preview</Typography>
              <Typography variant="body2" color="text.secondary">What a user sees when starting a session here: “Default”, then the categories in order.</Typography>
              <Typography sx={{ mt: 1, fontWeight: 600 }}>Default</Typography>
              {listed.data ? groups(listed.data).map((g) => (
                <Box key={g.key} sx={{ mt: 1 }}>
                  <Typography variant="overline">{g.label}</Typography>
                  {g.recipes.map((r) => (
                    <Box key={r.name} sx={{ pl: 1, mb: 0.5 }}>
                      <b>{r.title ?? r.name}</b> <span style={{ opacity: 0.7 }}>— {r.description}</span>
                    </Box>
                  ))}
                </Box>
              )) : null}
              {listed.data?.warnings.map((w, i) => <Typography key={i} color="warning.main" variant="body2">{w.message}</Typography>)}
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Box>
  );
}
